import { randomUUID } from 'node:crypto';
import type {
  MemoryCandidate,
  MemoryCandidateStatus,
  MemoryItem,
  MemoryScope,
  MemoryType,
} from '@youyou/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { MemoriesTable, MemoryCandidatesTable, Schema } from '../database/index.ts';
import { notFound } from '../errors/index.ts';

/** The agent core's namespace for a scope: `global` for the user, `project:<id>` for a project. */
export function namespaceOf(scope: MemoryScope, projectId: string | null): string {
  return scope === 'project' && projectId !== null ? `project:${projectId}` : 'global';
}

/** The scope a namespace of the agent core's contract stands for. */
export function scopeOfNamespace(namespace: string): { scope: MemoryScope; project_id: string | null } {
  return namespace.startsWith('project:')
    ? { scope: 'project', project_id: namespace.slice('project:'.length) }
    : { scope: 'user', project_id: null };
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function memoryItemOf(row: Selectable<MemoriesTable>): MemoryItem {
  return {
    id: row.id,
    scope: row.scope,
    project_id: row.project_id,
    type: row.type as MemoryType,
    content: row.content,
    source: row.source === 'run' ? 'run' : 'manual',
    source_run_id: row.source_run_id,
    confidence: Number(row.confidence),
    tags: JSON.parse(row.tags) as string[],
    created_at: new Date(Number(row.created_at)).toISOString(),
    updated_at: new Date(Number(row.updated_at)).toISOString(),
    last_accessed_at: iso(row.last_accessed_at === null ? null : Number(row.last_accessed_at)),
    expires_at: iso(row.expires_at === null ? null : Number(row.expires_at)),
  };
}

function candidateOf(row: Selectable<MemoryCandidatesTable>): MemoryCandidate {
  return {
    id: row.id,
    conversation_id: row.conversation_id,
    run_id: row.run_id,
    scope: row.scope,
    project_id: row.project_id,
    type: row.type as MemoryType,
    content: row.content,
    confidence: Number(row.confidence),
    status: row.status,
    memory_id: row.memory_id,
    created_at: new Date(Number(row.created_at)).toISOString(),
    resolved_at: iso(row.resolved_at === null ? null : Number(row.resolved_at)),
  };
}

/** A memory as the repository writes it (validated at the edge). */
export interface NewMemory {
  scope: MemoryScope;
  project_id: string | null;
  type: MemoryType;
  content: string;
  source: 'run' | 'manual';
  source_run_id: string | null;
  confidence: number;
  tags: readonly string[];
  expires_at: string | null;
}

export interface MemoryFilter {
  scope?: MemoryScope | undefined;
  projectId?: string | undefined;
  /** A substring of the content or tags, any case. */
  q?: string | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

/** `%`, `_` and the escape itself taken literally in a LIKE pattern. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replaceAll('\\', '\\\\').replaceAll('%', '\\%').replaceAll('_', '\\_')}%`;
}

/** NUL cannot be stored by PostgreSQL: both engines keep the same text without it. */
const clean = (text: string): string => text.replaceAll('\u0000', '');

/**
 * Memories and memory candidates in the workbench database (spec §4.13), on SQLite and
 * PostgreSQL alike.
 *
 * @example
 * const memories = new MemoryRepository(database.db);
 * await memories.create({ scope: 'user', project_id: null, type: 'preference', content: 'Answers in British English', … });
 */
export class MemoryRepository {
  readonly #db: Kysely<Schema>;
  readonly #now: () => number;

  constructor(db: Kysely<Schema>, options: { now?: () => number } = {}) {
    this.#db = db;
    this.#now = options.now ?? Date.now;
  }

  async create(memory: NewMemory): Promise<MemoryItem> {
    const now = this.#now();
    const row: Selectable<MemoriesTable> = {
      id: randomUUID(),
      owner: null,
      namespace: namespaceOf(memory.scope, memory.project_id),
      scope: memory.scope,
      project_id: memory.scope === 'project' ? memory.project_id : null,
      type: memory.type,
      content: clean(memory.content),
      source: memory.source,
      source_run_id: memory.source_run_id,
      confidence: memory.confidence,
      tags: JSON.stringify(memory.tags.map(clean)),
      created_at: now,
      updated_at: now,
      last_accessed_at: null,
      expires_at: memory.expires_at === null ? null : Date.parse(memory.expires_at),
    };
    await this.#db.insertInto('memories').values(row).execute();
    return memoryItemOf(row);
  }

  async get(id: string): Promise<MemoryItem> {
    const row = await this.#db.selectFrom('memories').selectAll().where('id', '=', id).executeTakeFirst();
    if (row === undefined) throw notFound('memory', id);
    return memoryItemOf(row);
  }

  async update(
    id: string,
    patch: {
      content?: string | undefined;
      type?: MemoryType | undefined;
      confidence?: number | undefined;
      tags?: readonly string[] | undefined;
      expires_at?: string | null | undefined;
    },
  ): Promise<MemoryItem> {
    await this.get(id);
    await this.#db
      .updateTable('memories')
      .set({
        updated_at: this.#now(),
        ...(patch.content === undefined ? {} : { content: clean(patch.content) }),
        ...(patch.type === undefined ? {} : { type: patch.type }),
        ...(patch.confidence === undefined ? {} : { confidence: patch.confidence }),
        ...(patch.tags === undefined ? {} : { tags: JSON.stringify(patch.tags.map(clean)) }),
        ...(patch.expires_at === undefined
          ? {}
          : { expires_at: patch.expires_at === null ? null : Date.parse(patch.expires_at) }),
      })
      .where('id', '=', id)
      .execute();
    return this.get(id);
  }

  async delete(id: string): Promise<void> {
    const result = await this.#db.deleteFrom('memories').where('id', '=', id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound('memory', id);
  }

  #filtered(filter: MemoryFilter) {
    let query = this.#db.selectFrom('memories');
    if (filter.scope !== undefined) query = query.where('scope', '=', filter.scope);
    if (filter.projectId !== undefined) query = query.where('project_id', '=', filter.projectId);
    if (filter.q !== undefined && filter.q.trim() !== '') {
      const pattern = likePattern(filter.q.trim());
      // One escape character on both engines (SQLite has none unless told).
      query = query.where(
        sql<boolean>`(lower(content) like ${pattern} escape '\\' or lower(tags) like ${pattern} escape '\\')`,
      );
    }
    return query;
  }

  /** Newest first, with the count of all matches. */
  async list(filter: MemoryFilter = {}): Promise<{ memories: MemoryItem[]; total: number }> {
    const rows = await this.#filtered(filter)
      .selectAll()
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit ?? 200)
      .offset(filter.offset ?? 0)
      .execute();
    const counted = await this.#filtered(filter)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    return { memories: rows.map(memoryItemOf), total: Number(counted.count) };
  }

  /** Every memory, oldest first (the export file). */
  async all(): Promise<MemoryItem[]> {
    const rows = await this.#db
      .selectFrom('memories')
      .selectAll()
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return rows.map(memoryItemOf);
  }

  /** Deletes everything, one scope, or one project's memories; returns how many went. */
  async clear(filter: { scope?: MemoryScope | undefined; projectId?: string | undefined }): Promise<number> {
    let query = this.#db.deleteFrom('memories');
    if (filter.scope !== undefined) query = query.where('scope', '=', filter.scope);
    if (filter.projectId !== undefined) query = query.where('project_id', '=', filter.projectId);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The memories a conversation may see: the user's, and its project's; unexpired, newest first. */
  async visible(projectId: string | null, limit = 1_000): Promise<MemoryItem[]> {
    const now = this.#now();
    const rows = await this.#db
      .selectFrom('memories')
      .selectAll()
      .where((eb) =>
        projectId === null
          ? eb('scope', '=', 'user')
          : eb.or([
              eb('scope', '=', 'user'),
              eb.and([eb('scope', '=', 'project'), eb('project_id', '=', projectId)]),
            ]),
      )
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(memoryItemOf);
  }

  /**
   * Keeps one namespace (the user's memories, or one project's) within `capacity` by deleting the
   * rest, `keep` (the memory just written) never among them. What goes first: expired memories,
   * then the least recently used (last injected, else last edited), then the least confident —
   * spec §4.13's capacity cap with recency eviction. Returns the memories deleted.
   */
  async evict(
    scope: MemoryScope,
    projectId: string | null,
    capacity: number,
    keep: string,
  ): Promise<MemoryItem[]> {
    const namespace = namespaceOf(scope, projectId);
    const counted = await this.#db
      .selectFrom('memories')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('namespace', '=', namespace)
      .executeTakeFirstOrThrow();
    const excess = Number(counted.count) - capacity;
    if (excess <= 0) return [];
    const now = this.#now();
    const rows = await this.#db
      .selectFrom('memories')
      .selectAll()
      .where('namespace', '=', namespace)
      .where('id', '!=', keep)
      .orderBy(sql`case when expires_at is not null and expires_at <= ${now} then 0 else 1 end`)
      .orderBy(sql`coalesce(last_accessed_at, updated_at)`)
      .orderBy('confidence', 'asc')
      .orderBy('id', 'asc')
      .limit(excess)
      .execute();
    if (rows.length === 0) return [];
    await this.#db
      .deleteFrom('memories')
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    return rows.map(memoryItemOf);
  }

  /** Marks memories as used by a model request now. */
  async touch(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#db
      .updateTable('memories')
      .set({ last_accessed_at: this.#now() })
      .where('id', 'in', [...ids])
      .execute();
  }

  async addCandidates(
    candidates: readonly Omit<
      MemoryCandidate,
      'id' | 'status' | 'memory_id' | 'created_at' | 'resolved_at'
    >[],
  ): Promise<MemoryCandidate[]> {
    if (candidates.length === 0) return [];
    const now = this.#now();
    // A millisecond apart, so they list in the order the model proposed them.
    const rows: Selectable<MemoryCandidatesTable>[] = candidates.map((candidate, index) => ({
      id: randomUUID(),
      conversation_id: candidate.conversation_id,
      run_id: candidate.run_id,
      scope: candidate.scope,
      project_id: candidate.project_id,
      type: candidate.type,
      content: clean(candidate.content),
      confidence: candidate.confidence,
      status: 'pending',
      memory_id: null,
      created_at: now + index,
      resolved_at: null,
    }));
    await this.#db.insertInto('memory_candidates').values(rows).execute();
    return rows.map(candidateOf);
  }

  async candidate(id: string): Promise<MemoryCandidate> {
    const row = await this.#db
      .selectFrom('memory_candidates')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined) throw notFound('memory candidate', id);
    return candidateOf(row);
  }

  async candidatesOf(conversationId: string): Promise<MemoryCandidate[]> {
    const rows = await this.#db
      .selectFrom('memory_candidates')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return rows.map(candidateOf);
  }

  /**
   * Ends a pending candidate; false when it was not pending any more (another tab decided first).
   */
  async resolveCandidate(
    id: string,
    status: Exclude<MemoryCandidateStatus, 'pending'>,
    memoryId: string | null,
  ): Promise<boolean> {
    const result = await this.#db
      .updateTable('memory_candidates')
      .set({ status, memory_id: memoryId, resolved_at: this.#now() })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
