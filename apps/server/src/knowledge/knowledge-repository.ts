import { randomUUID } from 'node:crypto';
import type {
  ChunkDraft,
  ChunkLocation,
  KnowledgeItem,
  KnowledgeSource,
  KnowledgeStatus,
} from '@youyou/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { KnowledgeChunksTable, KnowledgeItemsTable, Schema } from '../database/index.ts';

type ItemRow = Selectable<KnowledgeItemsTable>;

/** A stored chunk with what a citation needs of its item. */
export interface StoredChunk {
  id: number;
  knowledge_id: string;
  ordinal: number;
  text: string;
  heading_path: string[];
  location: ChunkLocation;
  block_start: number;
  block_end: number;
  item: KnowledgeItem;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(Number(ms)).toISOString();
}

/** A row as the contract's `KnowledgeItem`. */
export function itemOfRow(row: ItemRow): KnowledgeItem {
  return {
    id: row.id,
    project_id: row.project_id,
    source: row.source as KnowledgeSource,
    source_id: row.source_id,
    document_id: row.document_id,
    title: row.title,
    media_type: row.media_type,
    status: row.status as KnowledgeStatus,
    error: row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? '' },
    chunk_count: Number(row.chunk_count),
    embedded_count: Number(row.embedded_count),
    attempts: Number(row.attempts),
    source_version: Number(row.source_version),
    indexed_at: iso(row.indexed_at),
    created_at: iso(row.created_at) ?? '',
    updated_at: iso(row.updated_at) ?? '',
  };
}

/** What an item is about, as its source describes it. */
export interface ItemSource {
  source: KnowledgeSource;
  source_id: string;
  project_id: string | null;
  document_id: string | null;
  title: string;
  media_type: string;
  source_version: number;
}

/**
 * The knowledge tables (migration 0055): items with their status, and their chunks. Replacing an
 * item's chunks and marking it indexed is one transaction, so a search never sees half an item.
 *
 * @example
 * const item = await repository.upsert({ source: 'artifact', source_id: 'a1', … });
 */
export class KnowledgeRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  /**
   * Creates the item of a source, or updates its description; either way it is queued, held by
   * `claimer` (the instance that will index it; null: whoever recovers it first).
   */
  async upsert(source: ItemSource, claimer: string | null = null): Promise<KnowledgeItem> {
    const now = Date.now();
    const existing = await this.#db
      .selectFrom('knowledge_items')
      .selectAll()
      .where('source', '=', source.source)
      .where('source_id', '=', source.source_id)
      .executeTakeFirst();
    if (existing === undefined) {
      const row: ItemRow = {
        id: randomUUID(),
        ...source,
        status: 'queued',
        error_code: null,
        error_message: null,
        chunk_count: 0,
        embedded_count: 0,
        attempts: 0,
        indexed_at: null,
        claimed_by: claimer,
        claimed_at: claimer === null ? null : now,
        created_at: now,
        updated_at: now,
      };
      await this.#db
        .insertInto('knowledge_items')
        .values(row)
        .onConflict((conflict) => conflict.doNothing())
        .execute();
      return itemOfRow(row);
    }
    const updated = {
      project_id: source.project_id,
      document_id: source.document_id,
      title: source.title,
      media_type: source.media_type,
      source_version: source.source_version,
      status: 'queued',
      error_code: null,
      error_message: null,
      claimed_by: claimer,
      claimed_at: claimer === null ? null : now,
      updated_at: now,
    };
    await this.#db.updateTable('knowledge_items').set(updated).where('id', '=', existing.id).execute();
    return itemOfRow({ ...existing, ...updated });
  }

  async get(id: string): Promise<KnowledgeItem | undefined> {
    const row = await this.#db
      .selectFrom('knowledge_items')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : itemOfRow(row);
  }

  /** The item whose id, document id or source id is `id`. */
  async resolve(id: string): Promise<KnowledgeItem | undefined> {
    const row = await this.#db
      .selectFrom('knowledge_items')
      .selectAll()
      .where((where) =>
        where.or([where('id', '=', id), where('document_id', '=', id), where('source_id', '=', id)]),
      )
      .orderBy('updated_at', 'desc')
      .executeTakeFirst();
    return row === undefined ? undefined : itemOfRow(row);
  }

  /** Item ids for ids that may be item, document or source ids. */
  async idsOf(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db
      .selectFrom('knowledge_items')
      .select('id')
      .where((where) =>
        where.or([where('id', 'in', ids), where('document_id', 'in', ids), where('source_id', 'in', ids)]),
      )
      .execute();
    return rows.map((row) => row.id);
  }

  async bySource(source: KnowledgeSource, sourceId: string): Promise<KnowledgeItem | undefined> {
    const row = await this.#db
      .selectFrom('knowledge_items')
      .selectAll()
      .where('source', '=', source)
      .where('source_id', '=', sourceId)
      .executeTakeFirst();
    return row === undefined ? undefined : itemOfRow(row);
  }

  /** A project's items (null: outside any project), newest first. */
  async list(projectId: string | null): Promise<KnowledgeItem[]> {
    let query = this.#db.selectFrom('knowledge_items').selectAll();
    query =
      projectId === null ? query.where('project_id', 'is', null) : query.where('project_id', '=', projectId);
    const rows = await query.orderBy('updated_at', 'desc').orderBy('id').execute();
    return rows.map(itemOfRow);
  }

  /**
   * Queued or indexing items whose claimer is not among `live` (or that nobody holds): left by a
   * server that stopped or was killed mid-way (decision 0043), oldest first.
   */
  async orphans(live: ReadonlySet<string>): Promise<{ id: string; claimed_by: string | null }[]> {
    const rows = await this.#db
      .selectFrom('knowledge_items')
      .select(['id', 'claimed_by'])
      .where('status', 'in', ['queued', 'parsing'])
      .orderBy('updated_at')
      .execute();
    return rows.filter((row) => row.claimed_by === null || !live.has(row.claimed_by));
  }

  /**
   * Queues an orphan again under `claimer` if it is still held by `previous` (the claimer read with
   * it): of two instances recovering at once, the conditional UPDATE lets one win.
   */
  async takeOver(id: string, previous: string | null, claimer: string): Promise<boolean> {
    const now = Date.now();
    const result = await this.#db
      .updateTable('knowledge_items')
      .set({ status: 'queued', claimed_by: claimer, claimed_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'parsing'])
      .where((where) =>
        previous === null ? where('claimed_by', 'is', null) : where('claimed_by', '=', previous),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Starts indexing a queued item that `claimer` holds (or nobody does): `parsing`, one more attempt.
   * False when it is not queued or another instance holds it, and then it is not to be indexed here.
   */
  async claim(id: string, claimer: string): Promise<boolean> {
    const now = Date.now();
    const result = await this.#db
      .updateTable('knowledge_items')
      .set((eb) => ({
        status: 'parsing',
        error_code: null,
        error_message: null,
        attempts: eb('attempts', '+', 1),
        claimed_by: claimer,
        claimed_at: now,
        updated_at: now,
      }))
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .where((where) => where.or([where('claimed_by', 'is', null), where('claimed_by', '=', claimer)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Queues an item again (retry) under `claimer`. */
  async requeue(id: string, claimer: string): Promise<void> {
    const now = Date.now();
    await this.#db
      .updateTable('knowledge_items')
      .set({
        status: 'queued',
        error_code: null,
        error_message: null,
        claimed_by: claimer,
        claimed_at: now,
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  /** Marks an item failed and lets go of it. */
  async fail(id: string, error: { code: string; message: string }): Promise<void> {
    await this.#db
      .updateTable('knowledge_items')
      .set({
        status: 'failed',
        error_code: error.code,
        error_message: error.message,
        claimed_by: null,
        claimed_at: null,
        updated_at: Date.now(),
      })
      .where('id', '=', id)
      .execute();
  }

  /** Replaces an item's chunks and marks it indexed, in one transaction; returns the chunk ids. */
  async replaceChunks(item: KnowledgeItem, drafts: readonly ChunkDraft[]): Promise<number[]> {
    return this.#db.transaction().execute(async (transaction) => {
      await transaction.deleteFrom('knowledge_chunks').where('knowledge_id', '=', item.id).execute();
      const now = Date.now();
      const ids: number[] = [];
      // Batches keep each statement under SQLite's parameter limit.
      for (let start = 0; start < drafts.length; start += 200) {
        const rows: Omit<KnowledgeChunksTable, 'id'>[] = drafts.slice(start, start + 200).map((draft) => ({
          knowledge_id: item.id,
          project_id: item.project_id,
          source: item.source,
          ordinal: draft.ordinal,
          version: draft.version,
          text: draft.text,
          heading_path: JSON.stringify(draft.heading_path),
          heading_text: draft.heading_path.join(' › '),
          location: JSON.stringify(draft.location),
          block_start: draft.block_start,
          block_end: draft.block_end,
          created_at: now,
        }));
        const inserted = await transaction
          .insertInto('knowledge_chunks')
          .values(rows)
          .returning('id')
          .execute();
        ids.push(...inserted.map((row) => Number(row.id)));
      }
      await transaction
        .updateTable('knowledge_items')
        .set({
          status: 'indexed',
          error_code: null,
          error_message: null,
          chunk_count: drafts.length,
          embedded_count: 0,
          indexed_at: now,
          claimed_by: null,
          claimed_at: null,
          updated_at: now,
        })
        .where('id', '=', item.id)
        .execute();
      return ids;
    });
  }

  async setEmbedded(id: string, count: number): Promise<void> {
    await this.#db
      .updateTable('knowledge_items')
      .set({ embedded_count: count })
      .where('id', '=', id)
      .execute();
  }

  /** Chunks by id, with their items, in the order asked. */
  async chunks(ids: readonly number[]): Promise<StoredChunk[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db
      .selectFrom('knowledge_chunks as c')
      .innerJoin('knowledge_items as i', 'i.id', 'c.knowledge_id')
      .selectAll('i')
      .select([
        'c.id as chunk_id',
        'c.ordinal',
        'c.text',
        'c.heading_path',
        'c.location',
        'c.block_start',
        'c.block_end',
      ])
      .where('c.id', 'in', [...ids])
      .execute();
    const byId = new Map(
      rows.map((row) => [
        Number(row.chunk_id),
        {
          id: Number(row.chunk_id),
          knowledge_id: row.id,
          ordinal: Number(row.ordinal),
          text: row.text,
          heading_path: JSON.parse(row.heading_path) as string[],
          location: JSON.parse(row.location) as ChunkLocation,
          block_start: Number(row.block_start),
          block_end: Number(row.block_end),
          item: itemOfRow(row),
        },
      ]),
    );
    return ids.map((id) => byId.get(id)).filter((chunk): chunk is StoredChunk => chunk !== undefined);
  }

  /** The texts of an item's chunks with their ids, in order (for embedding). */
  async chunkTexts(knowledgeId: string): Promise<{ id: number; text: string; heading_text: string }[]> {
    const rows = await this.#db
      .selectFrom('knowledge_chunks')
      .select(['id', 'text', 'heading_text'])
      .where('knowledge_id', '=', knowledgeId)
      .orderBy('ordinal')
      .execute();
    return rows.map((row) => ({ id: Number(row.id), text: row.text, heading_text: row.heading_text }));
  }

  /** Written artifacts (not uploads) without a knowledge item. */
  async artifactsWithoutItems(): Promise<string[]> {
    const rows = await this.#db
      .selectFrom('artifacts as a')
      .leftJoin('knowledge_items as i', (join) =>
        join.onRef('i.source_id', '=', 'a.id').on('i.source', '=', 'artifact'),
      )
      .select('a.id')
      .where('a.kind', '!=', 'upload')
      .where('i.id', 'is', null)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Parsed documents (ingest) without a knowledge item. */
  async parsedDocumentsWithoutItems(): Promise<string[]> {
    const rows = await this.#db
      .selectFrom('documents as d')
      .leftJoin('knowledge_items as i', 'i.document_id', 'd.id')
      .select('d.id')
      .where('d.status', '=', 'parsed')
      .where('d.knowledge_scope', '=', 'project')
      .where('i.id', 'is', null)
      .execute();
    return rows.map((row) => row.id);
  }

  /** The items whose source id starts with `prefix` (an extension's knowledge packs: a few files). */
  async withSourcePrefix(
    source: KnowledgeSource,
    prefix: string,
  ): Promise<{ id: string; source_id: string }[]> {
    const rows = await this.#db
      .selectFrom('knowledge_items')
      .select(['id', 'source_id'])
      .where('source', '=', source)
      .execute();
    return rows.filter((row) => row.source_id.startsWith(prefix));
  }

  async deleteIds(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#db.deleteFrom('knowledge_items').where('id', 'in', ids).execute();
  }

  async deleteSource(source: KnowledgeSource, sourceId: string): Promise<void> {
    await this.#db
      .deleteFrom('knowledge_items')
      .where('source', '=', source)
      .where('source_id', '=', sourceId)
      .execute();
  }
}
