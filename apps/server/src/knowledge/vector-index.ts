import type { VectorFilter, VectorIndex, VectorRecord } from '@youyou/contracts';
import { sql, type Kysely } from 'kysely';
import type { DialectName, Schema } from '../database/index.ts';

function toBytes(vector: Float32Array): Uint8Array {
  // Float32Array is little-endian on every platform Node runs on.
  return new Uint8Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
}

function fromStored(value: Uint8Array | number[]): Float32Array {
  if (Array.isArray(value)) return Float32Array.from(value);
  const copy = new Uint8Array(value);
  return new Float32Array(copy.buffer, 0, Math.floor(copy.byteLength / 4));
}

function dot(left: Float32Array, right: Float32Array): number {
  let sum = 0;
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) sum += (left[index] ?? 0) * (right[index] ?? 0);
  return sum;
}

/**
 * The VectorIndex of both storage tiers (spec §4.12, D13): vectors are stored with their chunks
 * (float32 bytes on SQLite, real[] on PostgreSQL) and searched by an exact scan — in this process
 * over the filtered rows, or on PostgreSQL by pgvector's `<=>` when that extension is installed.
 * Vectors are normalised when made, so cosine similarity is their dot product.
 *
 * @example
 * const index = new StoredVectorIndex(db, 'sqlite');
 * await index.search('local/bge-m3', queryVector, { top_k: 20, filter: { project_id: 'p1' } });
 */
export class StoredVectorIndex implements VectorIndex {
  readonly id = 'stored-exact-scan';
  readonly #db: Kysely<Schema>;
  readonly #dialect: DialectName;
  #pgvector: Promise<string | undefined> | undefined;

  constructor(db: Kysely<Schema>, dialect: DialectName) {
    this.#db = db;
    this.#dialect = dialect;
  }

  /** Whether PostgreSQL has pgvector installed (asked once). */
  async hasPgvector(): Promise<boolean> {
    return (await this.#pgvectorSchema()) !== undefined;
  }

  /** The schema pgvector is installed in (its type and operator are named through it), if it is. */
  #pgvectorSchema(): Promise<string | undefined> {
    if (this.#dialect !== 'postgres') return Promise.resolve(undefined);
    this.#pgvector ??= sql<{ schema: string }>`select n.nspname as schema from pg_extension e
      join pg_namespace n on n.oid = e.extnamespace where e.extname = 'vector'`
      .execute(this.#db)
      .then((result) => result.rows[0]?.schema)
      .catch(() => undefined);
    return this.#pgvector;
  }

  async upsert(model: string, records: readonly VectorRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.#db.transaction().execute(async (transaction) => {
      for (let start = 0; start < records.length; start += 100) {
        const rows = records.slice(start, start + 100).map((record) => ({
          chunk_id: Number(record.chunk_id),
          knowledge_id: record.knowledge_id,
          project_id: record.project_id,
          model,
          dimensions: record.vector.length,
          vector: this.#dialect === 'sqlite' ? toBytes(record.vector) : Array.from(record.vector),
        }));
        await transaction
          .insertInto('knowledge_vectors')
          .values(rows)
          .onConflict((conflict) =>
            conflict.columns(['chunk_id', 'model']).doUpdateSet((eb) => ({
              vector: eb.ref('excluded.vector'),
              dimensions: eb.ref('excluded.dimensions'),
            })),
          )
          .execute();
      }
    });
  }

  async deleteKnowledge(knowledgeId: string): Promise<void> {
    await this.#db.deleteFrom('knowledge_vectors').where('knowledge_id', '=', knowledgeId).execute();
  }

  async search(
    model: string,
    vector: Float32Array,
    options: { top_k: number; filter?: VectorFilter },
  ): Promise<{ chunk_id: string; score: number }[]> {
    const filter = options.filter ?? {};
    let query = this.#db
      .selectFrom('knowledge_vectors as v')
      .innerJoin('knowledge_chunks as c', 'c.id', 'v.chunk_id')
      .where('v.model', '=', model)
      .where('v.dimensions', '=', vector.length);
    if (filter.project_id === null) query = query.where('v.project_id', 'is', null);
    else if (filter.project_id !== undefined) {
      const projectId = filter.project_id;
      // Extensions' knowledge packs belong to no project and are searched from every one.
      query = query.where((where) =>
        where.or([where('v.project_id', '=', projectId), where('c.source', '=', 'extension')]),
      );
    }
    if (filter.document_ids !== undefined)
      query = query.where(
        'v.knowledge_id',
        'in',
        filter.document_ids.length === 0 ? [''] : [...filter.document_ids],
      );
    if (filter.sources !== undefined && filter.sources.length > 0)
      query = query.where('c.source', 'in', [...filter.sources]);
    const schema = await this.#pgvectorSchema();
    if (schema !== undefined) {
      // Named through its schema, so an extension installed outside the search path still works.
      const type = sql`${sql.id(schema)}.vector`;
      const distance = sql`cast(v.vector as ${type}) operator(${sql.id(schema)}.<=>) cast(${`[${Array.from(vector).join(',')}]`} as ${type})`;
      const rows = await query
        .select(['v.chunk_id', sql<number>`1 - (${distance})`.as('score')])
        .orderBy(distance)
        .orderBy('v.chunk_id')
        .limit(options.top_k)
        .execute();
      return rows.map((row) => ({ chunk_id: String(row.chunk_id), score: Number(row.score) }));
    }
    const rows = await query.select(['v.chunk_id', 'v.vector']).execute();
    const scored = rows.map((row) => ({
      chunk_id: String(row.chunk_id),
      score: dot(vector, fromStored(row.vector)),
    }));
    scored.sort((left, right) => right.score - left.score);
    return scored.slice(0, options.top_k);
  }
}
