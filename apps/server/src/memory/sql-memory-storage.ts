import { rankMemories, type Memory, type MemoryInput, type MemoryStorage } from '@youyou/agent';
import type { Kysely, Selectable } from 'kysely';
import type { MemoriesTable, Schema } from '../database/index.ts';
import { scopeOfNamespace } from './memory-repository.ts';

function memoryOfRow(row: Selectable<MemoriesTable>): Memory {
  return {
    id: row.id,
    namespace: row.namespace,
    content: row.content,
    source: row.source,
    tags: JSON.parse(row.tags) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * The agent core's MemoryStorage contract (spec §3.8) over the workbench's memories (§4.13):
 * namespace `global` is the user scope, `project:<id>` a project's. The workbench itself does not
 * register it with its agents (their silent extraction at session close is off, decision 0015);
 * it reads and writes through `MemoryService`, and this class serves programs that embed the
 * agent core over the same data.
 *
 * @example
 * const memories = new SqlMemoryStorage(database.db);
 * await memories.upsert({ id: 'm1', namespace: 'global', content: 'Prefers tabs', source: 's1', tags: [] });
 */
export class SqlMemoryStorage implements MemoryStorage {
  readonly #db: Kysely<Schema>;
  readonly #now: () => number;

  constructor(db: Kysely<Schema>, options: { now?: () => number } = {}) {
    this.#db = db;
    this.#now = options.now ?? Date.now;
  }

  async load(namespace: string): Promise<readonly Memory[]> {
    const rows = await this.#db
      .selectFrom('memories')
      .selectAll()
      .where('namespace', '=', namespace)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(memoryOfRow);
  }

  async upsert(input: MemoryInput): Promise<Memory> {
    // Memories are written by the model: a NUL in one is dropped here, so PostgreSQL (which
    // cannot store it) and SQLite keep the same text.
    const memory = { ...input, content: input.content.replaceAll('\u0000', '') };
    const now = this.#now();
    return this.#db.transaction().execute(async (transaction) => {
      const existing = await transaction
        .selectFrom('memories')
        .selectAll()
        .where('id', '=', memory.id)
        .executeTakeFirst();
      if (existing === undefined) {
        const { scope, project_id } = scopeOfNamespace(memory.namespace);
        const row: Selectable<MemoriesTable> = {
          id: memory.id,
          owner: null,
          namespace: memory.namespace,
          content: memory.content,
          source: memory.source,
          tags: JSON.stringify(memory.tags),
          created_at: now,
          updated_at: now,
          scope,
          project_id,
          type: 'fact',
          source_run_id: null,
          confidence: 1,
          last_accessed_at: null,
          expires_at: null,
        };
        await transaction.insertInto('memories').values(row).execute();
        return memoryOfRow(row);
      }
      const changes =
        existing.content === memory.content
          ? { updated_at: now }
          : {
              namespace: memory.namespace,
              content: memory.content,
              source: memory.source,
              tags: JSON.stringify(memory.tags),
              updated_at: now,
            };
      await transaction.updateTable('memories').set(changes).where('id', '=', memory.id).execute();
      return memoryOfRow({ ...existing, ...changes });
    });
  }

  async delete(id: string): Promise<void> {
    await this.#db.deleteFrom('memories').where('id', '=', id).execute();
  }

  async search(namespace: string, query: string, limit: number): Promise<readonly Memory[]> {
    return rankMemories(await this.load(namespace), query).slice(0, limit);
  }
}
