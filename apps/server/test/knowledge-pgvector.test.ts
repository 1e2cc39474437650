import type { VectorRecord } from '@youyou/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type WorkbenchDatabase } from '../src/database/index.ts';
import { KnowledgeRepository, StoredVectorIndex } from '../src/knowledge/index.ts';

const DIMENSIONS = 24;
const CHUNKS = 120;
const MODEL = 'test/embedding';

/** A deterministic generator, so every run embeds the same vectors. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
}

function normalised(values: number[]): Float32Array {
  const length = Math.hypot(...values);
  return Float32Array.from(values.map((value) => value / length));
}

/**
 * PGlite (PostgreSQL compiled to WebAssembly) with pgvector and pg_trgm, behind a loopback socket
 * that `pg` connects to: the one PostgreSQL this machine can run pgvector on. Undefined when the
 * extension cannot be loaded into PGlite here, with the reason.
 */
async function pgliteWithPgvector(
  schema: string,
): Promise<{ url: string; stop(): Promise<void> } | { skipped: string }> {
  try {
    const [{ PGlite }, { pg_trgm }, { vector }, { PGLiteSocketServer }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
      import('@electric-sql/pglite-pgvector'),
      import('@electric-sql/pglite-socket'),
    ]);
    const pglite = await PGlite.create({ extensions: { pg_trgm, vector } });
    await pglite.exec(`create schema if not exists ${schema}; create extension vector schema ${schema}`);
    const server = new PGLiteSocketServer({ db: pglite, port: 0, host: '127.0.0.1', maxConnections: 4 });
    await server.start();
    return {
      url: `postgres://postgres@${server.getServerConn()}/postgres`,
      stop: async () => {
        await server.stop();
        await pglite.close();
      },
    };
  } catch (error) {
    return { skipped: `PGlite could not load pgvector: ${(error as Error).message}` };
  }
}

// In public, and in a schema of its own that is not on the search path (as some hosts install it).
for (const schema of ['public', 'extensions']) {
  const started = await pgliteWithPgvector(schema);
  const skipReason = 'skipped' in started ? started.skipped : undefined;

  describe.skipIf(skipReason !== undefined)(
    `vector search through pgvector on PGlite, the extension in ${schema}${skipReason === undefined ? '' : ` (skipped: ${skipReason})`}`,
    () => {
      let database: WorkbenchDatabase;
      const vectors = new Map<string, Float32Array>();
      const knowledgeOf = new Map<string, string>();

      beforeAll(async () => {
        if ('skipped' in started) return;
        database = openDatabase({ databaseUrl: started.url, poolSize: 1 });
        await migrateToLatest(database);
        const now = Date.now();
        for (const id of ['p1', 'p2'])
          await database.db
            .insertInto('projects')
            .values({ id, owner: null, name: id, directory: null, created_at: now, updated_at: now })
            .execute();
        const repository = new KnowledgeRepository(database.db);
        const next = random(7);
        const records: VectorRecord[] = [];
        for (let document = 0; document < CHUNKS / 10; document += 1) {
          const projectId = document % 4 === 3 ? 'p2' : 'p1';
          const item = await repository.upsert({
            source: 'upload',
            source_id: `upload-${document}`,
            project_id: projectId,
            document_id: `document-${document}`,
            title: `Document ${document}`,
            media_type: 'text/markdown',
            source_version: 1,
          });
          const chunkIds = await repository.replaceChunks(
            item,
            Array.from({ length: 10 }, (_, ordinal) => ({
              version: 1,
              ordinal,
              text: `Passage ${ordinal} of document ${document}.`,
              heading_path: [`Document ${document}`],
              location: {},
              block_start: ordinal,
              block_end: ordinal,
            })),
          );
          for (const id of chunkIds) {
            const chunkId = String(id);
            const vector = normalised(Array.from({ length: DIMENSIONS }, () => next()));
            vectors.set(chunkId, vector);
            knowledgeOf.set(chunkId, item.id);
            records.push({ chunk_id: chunkId, knowledge_id: item.id, project_id: projectId, vector });
          }
        }
        expect(records).toHaveLength(CHUNKS);
        await new StoredVectorIndex(database.db, 'postgres').upsert(MODEL, records);
      });
      afterAll(async () => {
        if ('skipped' in started) return;
        await database.close();
        await started.stop();
      });

      /** The exact top k by cosine similarity (dot product of unit vectors), computed here. */
      function exactTopK(query: Float32Array, k: number, keep: (chunkId: string) => boolean): string[] {
        return [...vectors]
          .filter(([chunkId]) => keep(chunkId))
          .map(([chunkId, vector]) => ({
            chunkId,
            score: vector.reduce((sum, value, index) => sum + value * (query[index] ?? 0), 0),
          }))
          .sort((left, right) => right.score - left.score)
          .slice(0, k)
          .map((entry) => entry.chunkId);
      }

      it('the extension is seen and the search runs through it', async () => {
        expect(await new StoredVectorIndex(database.db, 'postgres').hasPgvector()).toBe(true);
      });

      it('pgvector gives the same top k as the exact scan, with cosine similarity as the score', async () => {
        const index = new StoredVectorIndex(database.db, 'postgres');
        const next = random(99);
        for (let round = 0; round < 5; round += 1) {
          const query = normalised(Array.from({ length: DIMENSIONS }, () => next()));
          const hits = await index.search(MODEL, query, { top_k: 10 });
          expect(hits.map((hit) => hit.chunk_id)).toEqual(exactTopK(query, 10, () => true));
          for (const hit of hits) {
            const vector = vectors.get(hit.chunk_id) ?? new Float32Array();
            const dot = vector.reduce((sum, value, at) => sum + value * (query[at] ?? 0), 0);
            expect(hit.score).toBeCloseTo(dot, 5);
          }
        }
      });

      it('pgvector search keeps the project and document filters of the exact scan', async () => {
        const index = new StoredVectorIndex(database.db, 'postgres');
        const query = normalised(Array.from({ length: DIMENSIONS }, (_, at) => (at % 3 === 0 ? 1 : -0.2)));
        const inP2 = await database.db
          .selectFrom('knowledge_items')
          .select('id')
          .where('project_id', '=', 'p2')
          .execute();
        const p2Items = new Set(inP2.map((row) => row.id));
        const hits = await index.search(MODEL, query, { top_k: 5, filter: { project_id: 'p1' } });
        expect(hits.map((hit) => hit.chunk_id)).toEqual(
          exactTopK(query, 5, (chunkId) => !p2Items.has(knowledgeOf.get(chunkId) ?? '')),
        );
        const oneDocument = [...p2Items][0] ?? '';
        const inDocument = await index.search(MODEL, query, {
          top_k: 3,
          filter: { document_ids: [oneDocument] },
        });
        expect(inDocument.map((hit) => hit.chunk_id)).toEqual(
          exactTopK(query, 3, (chunkId) => knowledgeOf.get(chunkId) === oneDocument),
        );
      });

      it('a query vector of another dimension finds nothing instead of failing', async () => {
        const index = new StoredVectorIndex(database.db, 'postgres');
        expect(await index.search(MODEL, normalised([1, 2, 3]), { top_k: 5 })).toEqual([]);
      });
    },
  );
}
