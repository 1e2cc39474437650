import type { Memory, MemoryInput, MemoryStorage } from '../memory/index.ts';

/**
 * Memories kept in process memory. `search` ranks by how many query words a memory contains,
 * then by recency.
 *
 * @example
 * const memories = new InMemoryMemoryStorage();
 * await memories.upsert({ id: 'm1', namespace: 'global', content: 'Prefers tabs', source: 's1', tags: [] });
 */
export class InMemoryMemoryStorage implements MemoryStorage {
  readonly #memories = new Map<string, Memory>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  async load(namespace: string): Promise<readonly Memory[]> {
    return this.#inNamespace(namespace);
  }

  async upsert(memory: MemoryInput): Promise<Memory> {
    const now = this.#now();
    const existing = this.#memories.get(memory.id);
    const saved: Memory =
      existing === undefined
        ? { ...memory, tags: [...memory.tags], createdAt: now, updatedAt: now }
        : existing.content === memory.content
          ? { ...existing, updatedAt: now }
          : { ...existing, ...memory, tags: [...memory.tags], updatedAt: now };
    this.#memories.set(memory.id, saved);
    return copy(saved);
  }

  async delete(id: string): Promise<void> {
    this.#memories.delete(id);
  }

  async search(namespace: string, query: string, limit: number): Promise<readonly Memory[]> {
    return rankMemories(this.#inNamespace(namespace), query).slice(0, limit);
  }

  #inNamespace(namespace: string): Memory[] {
    return [...this.#memories.values()]
      .filter((memory) => memory.namespace === namespace)
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .map(copy);
  }
}

/** Callers get their own tags array, so mutating a returned memory never reaches the store. */
function copy(memory: Memory): Memory {
  return { ...memory, tags: [...memory.tags] };
}

/** Orders memories (already newest first) by matched query words; stable, so ties stay newest first. */
export function rankMemories(memories: readonly Memory[], query: string): Memory[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return [...memories];
  const score = (memory: Memory): number => {
    const haystack = `${memory.content} ${memory.tags.join(' ')}`.toLowerCase();
    return words.filter((word) => haystack.includes(word)).length;
  };
  return memories
    .map((memory) => ({ memory, score: score(memory) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score)
    .map((entry) => entry.memory);
}
