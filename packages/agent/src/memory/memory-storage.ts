/** A fact remembered across sessions (spec §3.8). */
export interface Memory {
  id: string;
  /** The absolute workspace root, or "global". */
  namespace: string;
  content: string;
  /** Where it came from, e.g. the session id that produced it. */
  source: string;
  tags: readonly string[];
  createdAt: number;
  updatedAt: number;
}

export type MemoryInput = Omit<Memory, 'createdAt' | 'updatedAt'>;

/**
 * Cross-session memory (spec §3.8). `upsert` by id: same content → only `updatedAt` moves;
 * different content → content replaced. Throwing from any method is reported as STORAGE_ERROR.
 */
export interface MemoryStorage {
  /** Every memory of a namespace, newest first. */
  load(namespace: string): Promise<readonly Memory[]>;
  upsert(memory: MemoryInput): Promise<Memory>;
  delete(id: string): Promise<void>;
  /** Most relevant first; an empty query means most recently updated first. */
  search(namespace: string, query: string, limit: number): Promise<readonly Memory[]>;
}
