import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AgentError } from '../errors/index.ts';
import { writeFileAtomic } from '../atomic-write/index.ts';
import { resolveYouyouHome } from '../files/index.ts';
import type { Memory, MemoryInput, MemoryStorage } from '../memory/index.ts';
import { rankMemories } from './in-memory-memory-storage.ts';

/**
 * Where `FileMemoryStorage` keeps `memories.json`.
 *
 * @example
 * new FileMemoryStorage({ directory: '/var/lib/youyou/memories' });
 */
export interface FileMemoryStorageOptions {
  /** Where `memories.json` goes; default `{home}/memories`. */
  directory?: string;
  /** Used when `directory` is absent; default `YOUYOU_HOME` or `~/.youyou`. */
  home?: string;
  now?: () => number;
}

/** The file format: `{ "version": 1, "memories": [Memory, …] }`. */
interface MemoryFile {
  version: 1;
  memories: Memory[];
}

/**
 * Memories in one JSON file, `~/.youyou/memories/memories.json` (spec §3.8, §5.1), replaced
 * atomically on every change: a crash leaves the old file or the new one. Upsert is by id across
 * namespaces; `search` ranks by matched query words, then recency. The file is re-read when
 * another process changed it. A file that is not valid JSON is never overwritten: every call
 * fails with STORAGE_ERROR until it is fixed or removed.
 *
 * @example
 * const agent = await new AgentBuilder({ cwd, home })
 *   .addProvider(provider)
 *   .setMemoryStorage(new FileMemoryStorage({ home }))
 *   .build();
 */
export class FileMemoryStorage implements MemoryStorage {
  readonly path: string;
  readonly #now: () => number;
  #cache: { memories: Map<string, Memory>; size: number; mtimeMs: number } | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: FileMemoryStorageOptions = {}) {
    const directory = resolve(options.directory ?? join(options.home ?? resolveYouyouHome(), 'memories'));
    this.path = join(directory, 'memories.json');
    this.#now = options.now ?? Date.now;
  }

  load(namespace: string): Promise<readonly Memory[]> {
    return this.#serialize(async () => inNamespace(await this.#read(), namespace));
  }

  async upsert(input: MemoryInput): Promise<Memory> {
    checkInput(input);
    return this.#serialize(async () => {
      const memories = await this.#read();
      const now = this.#now();
      const existing = memories.get(input.id);
      const saved: Memory =
        existing === undefined
          ? { ...copyInput(input), createdAt: now, updatedAt: now }
          : existing.content === input.content
            ? { ...existing, updatedAt: now }
            : { ...existing, ...copyInput(input), updatedAt: now };
      const next = new Map(memories);
      next.set(input.id, saved);
      await this.#write(next);
      return { ...saved, tags: [...saved.tags] };
    });
  }

  delete(id: string): Promise<void> {
    return this.#serialize(async () => {
      const memories = await this.#read();
      if (!memories.has(id)) return;
      const next = new Map(memories);
      next.delete(id);
      await this.#write(next);
    });
  }

  search(namespace: string, query: string, limit: number): Promise<readonly Memory[]> {
    return this.#serialize(async () =>
      rankMemories(inNamespace(await this.#read(), namespace), query).slice(0, Math.max(0, limit)),
    );
  }

  #serialize<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async #read(): Promise<Map<string, Memory>> {
    let info;
    try {
      info = await stat(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.#cache = { memories: new Map(), size: 0, mtimeMs: 0 };
        return this.#cache.memories;
      }
      throw this.#error('could not be read', error);
    }
    if (this.#cache !== undefined && this.#cache.size === info.size && this.#cache.mtimeMs === info.mtimeMs) {
      return this.#cache.memories;
    }
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      throw this.#error('could not be read', error);
    }
    const memories = parseMemoryFile(text);
    if (memories === undefined) {
      throw new AgentError(
        'STORAGE_ERROR',
        `${this.path} is not a valid memory file ({"version": 1, "memories": [...]}); fix or move it`,
        {
          retryable: false,
          details: { path: this.path },
        },
      );
    }
    this.#cache = {
      memories: new Map(memories.map((memory) => [memory.id, memory])),
      size: info.size,
      mtimeMs: info.mtimeMs,
    };
    return this.#cache.memories;
  }

  async #write(memories: Map<string, Memory>): Promise<void> {
    const file: MemoryFile = { version: 1, memories: [...memories.values()] };
    const text = `${JSON.stringify(file, null, 2)}\n`;
    try {
      await writeFileAtomic(this.path, text);
      const info = await stat(this.path);
      this.#cache = { memories, size: info.size, mtimeMs: info.mtimeMs };
    } catch (error) {
      this.#cache = undefined;
      throw this.#error('could not be written', error);
    }
  }

  #error(what: string, cause: unknown): AgentError {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new AgentError('STORAGE_ERROR', `${this.path} ${what}: ${reason}`, {
      cause,
      details: { path: this.path },
    });
  }
}

function inNamespace(memories: ReadonlyMap<string, Memory>, namespace: string): Memory[] {
  return [...memories.values()]
    .filter((memory) => memory.namespace === namespace)
    .sort((left, right) => right.updatedAt - left.updatedAt)
    .map((memory) => ({ ...memory, tags: [...memory.tags] }));
}

function copyInput(input: MemoryInput): MemoryInput {
  return {
    id: input.id,
    namespace: input.namespace,
    content: input.content,
    source: input.source,
    tags: [...input.tags],
  };
}

function checkInput(input: MemoryInput): void {
  const textFields = ['id', 'namespace', 'content', 'source'] as const;
  for (const field of textFields) {
    if (typeof input[field] !== 'string') {
      throw new AgentError('INVALID_INPUT', `memory.${field} must be a string`, { details: { field } });
    }
  }
  if (input.id === '')
    throw new AgentError('INVALID_INPUT', 'memory.id must not be empty', { details: { field: 'id' } });
  if (!Array.isArray(input.tags) || !input.tags.every((tag) => typeof tag === 'string')) {
    throw new AgentError('INVALID_INPUT', 'memory.tags must be a list of strings', {
      details: { field: 'tags' },
    });
  }
}

function parseMemoryFile(text: string): Memory[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || (value as { version?: unknown }).version !== 1)
    return undefined;
  const memories = (value as { memories?: unknown }).memories;
  if (!Array.isArray(memories) || !memories.every(isMemory)) return undefined;
  return memories;
}

function isMemory(value: unknown): value is Memory {
  if (value === null || typeof value !== 'object') return false;
  const memory = value as Record<string, unknown>;
  return (
    ['id', 'namespace', 'content', 'source'].every((field) => typeof memory[field] === 'string') &&
    Array.isArray(memory['tags']) &&
    typeof memory['createdAt'] === 'number' &&
    typeof memory['updatedAt'] === 'number'
  );
}
