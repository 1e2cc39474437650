import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DocumentBlock, EmbeddingProvider, Reranker } from '@youyou/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChunkEmbedder,
  KnowledgeRepository,
  KnowledgeRetriever,
  StoredVectorIndex,
  blockChunker,
  httpReranker,
  openaiEmbeddings,
  reciprocalRankFusion,
} from '../src/knowledge/index.ts';
import { DATABASE_KINDS } from './support/databases.ts';
import { storageFixtures, type StorageFixture } from './support/storage-fixture.ts';

/** Concepts the fake embedding model "understands": each is one dimension. */
const CONCEPTS = [
  ['car', 'automobile', 'vehicle', '汽车'],
  ['refund', 'money back', 'reimbursement', '退款'],
  ['holiday', 'vacation', 'leave', '假期'],
  ['launch', 'release', 'ship'],
];

function embed(text: string): number[] {
  const lower = text.toLowerCase();
  return [...CONCEPTS.map((words) => words.filter((word) => lower.includes(word)).length), 0.01];
}

async function body(request: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return JSON.parse(Buffer.concat(parts).toString('utf8'));
}

/** What the fake model server reads of a request body. */
interface FakeBody {
  model?: string;
  input?: string | string[];
  documents?: string[];
  top_n?: number;
}

/** A fake model server: OpenAI's `/v1/embeddings` and a Jina/Cohere-style `/v1/rerank`. */
async function startFakeModels(): Promise<{
  url: string;
  requests: { path: string; body: FakeBody }[];
  server: Server;
}> {
  const requests: { path: string; body: FakeBody }[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const payload = (await body(request)) as FakeBody;
      requests.push({ path: request.url ?? '', body: payload });
      if (request.headers.authorization !== 'Bearer test-key') {
        response
          .writeHead(401, { 'content-type': 'application/json' })
          .end('{"error":{"message":"bad key"}}');
        return;
      }
      if (request.url === '/v1/embeddings') {
        const input: string[] = Array.isArray(payload.input) ? payload.input : [payload.input ?? ''];
        // Out of order on purpose: clients must sort by index.
        const data = input
          .map((text, index) => ({ object: 'embedding', index, embedding: embed(text) }))
          .reverse();
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            object: 'list',
            data,
            model: payload.model,
            usage: { prompt_tokens: 1, total_tokens: 1 },
          }),
        );
        return;
      }
      if (request.url === '/v1/rerank') {
        // Prefers documents that mention "policy": a judgement full text and vectors do not make.
        const results = (payload.documents ?? [])
          .map((document, index) => ({
            index,
            relevance_score: document.includes('policy') ? 0.9 : 0.1 / (index + 1),
          }))
          .sort((left, right) => right.relevance_score - left.relevance_score)
          .slice(0, payload.top_n);
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ model: payload.model, results }));
        return;
      }
      response.writeHead(404).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests, server };
}

const paragraph = (text: string): DocumentBlock => ({ type: 'paragraph', text, location: {} });

describe('reciprocal rank fusion', () => {
  it('sums 1/(k + rank) over the lists, so agreement beats one high rank', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'x'],
      ['y', 'b', 'z'],
    ]);
    expect(fused.map((entry) => entry.id)).toEqual(['b', 'a', 'y', 'x', 'z']);
    expect(fused[0]?.score).toBeCloseTo(2 / 62);
  });
});

for (const kind of DATABASE_KINDS) {
  describe(`hybrid retrieval against fake embedding and rerank servers on ${kind}`, () => {
    const fixtures = storageFixtures(kind);
    let fixture: StorageFixture;
    let fake: Awaited<ReturnType<typeof startFakeModels>>;
    let embeddings: EmbeddingProvider;
    let reranker: Reranker;
    let retriever: (options: { rerank: boolean }) => KnowledgeRetriever;
    let index: StoredVectorIndex;

    beforeAll(async () => {
      fixture = await fixtures.create();
      fake = await startFakeModels();
      const endpoint = { baseUrl: fake.url, apiKey: 'test-key' };
      embeddings = openaiEmbeddings('fake/embed', { ...endpoint, model: 'embed-1' });
      reranker = httpReranker('fake/rerank', { ...endpoint, model: 'rerank-1' });
      const now = Date.now();
      await fixture.database.db
        .insertInto('projects')
        .values({ id: 'p1', owner: null, name: 'p1', directory: null, created_at: now, updated_at: now })
        .execute();
      const repository = new KnowledgeRepository(fixture.database.db);
      index = new StoredVectorIndex(fixture.database.db, fixture.database.dialect);
      const embedder = new ChunkEmbedder({ repository, index, embeddings: async () => embeddings });
      const documents: [string, string][] = [
        ['garage.md', 'The car needs new tyres before winter.'],
        ['expenses.md', 'Reimbursement of travel costs takes two weeks.'],
        ['policy.md', 'The refund policy: money back within thirty days.'],
        ['hr.md', 'Vacation days are booked in the HR portal.'],
      ];
      for (const [title, text] of documents) {
        const item = await repository.upsert({
          source: 'upload',
          source_id: title,
          project_id: 'p1',
          document_id: `${title}-doc`,
          title,
          media_type: 'text/markdown',
          source_version: 1,
        });
        await repository.replaceChunks(item, blockChunker.chunk([paragraph(text)]));
        expect(await embedder.embedItem(item)).toBe(1);
      }
      retriever = ({ rerank }) =>
        new KnowledgeRetriever({
          db: fixture.database.db,
          dialect: fixture.database.dialect,
          repository,
          models: {
            embeddings: async () => embeddings,
            reranker: async () => (rerank ? reranker : undefined),
            index,
          },
        });
    });

    afterAll(async () => {
      fake.server.close();
      await fixture.cleanup();
      await fixtures.dispose();
    });

    it('embeddings go over the OpenAI wire format with the key, batched, and come back in input order', async () => {
      const vectors = await embeddings.embed(['car', 'vacation', 'nothing'], { purpose: 'query' });
      expect(vectors.map((vector) => Array.from(vector).findIndex((value) => value > 0.5))).toEqual([
        0, 2, 4,
      ]);
      const request = fake.requests.find((entry) => entry.path === '/v1/embeddings');
      expect(request?.body).toMatchObject({ model: 'embed-1', encoding_format: 'float' });
      expect(Math.hypot(...Array.from(vectors[0] ?? []))).toBeCloseTo(1);
    });

    it('vector search finds a synonym full text cannot, filtered by project', async () => {
      const [query] = await embeddings.embed(['automobile'], { purpose: 'query' });
      const near = await index.search('fake/embed', query ?? new Float32Array(), {
        top_k: 2,
        filter: { project_id: 'p1' },
      });
      expect(near).toHaveLength(2);
      const fulltext = await retriever({ rerank: false }).search({
        query: 'automobile',
        project_id: 'p1',
        mode: 'fulltext',
      });
      expect(fulltext.hits).toHaveLength(0);
      const hybrid = await retriever({ rerank: false }).search({
        query: 'automobile',
        project_id: 'p1',
        top_k: 1,
      });
      expect(hybrid.mode).toBe('hybrid');
      expect(hybrid.hits[0]?.citation.title).toBe('garage.md');
      expect(hybrid.hits[0]?.scores.vector).toBeGreaterThan(0.9);
      expect(
        await index.search('fake/embed', query ?? new Float32Array(), {
          top_k: 5,
          filter: { project_id: 'elsewhere' },
        }),
      ).toHaveLength(0);
    });

    it('hybrid fuses full text and vectors by reciprocal rank', async () => {
      const result = await retriever({ rerank: false }).search({
        query: 'reimbursement',
        project_id: 'p1',
        top_k: 4,
      });
      // Full text and vectors both rank expenses.md first; the vector alone finds policy.md (money back).
      expect(result.hits[0]?.citation.title).toBe('expenses.md');
      expect(result.hits[0]?.scores).toMatchObject({
        fulltext: expect.any(Number),
        vector: expect.any(Number),
      });
      expect(result.hits.map((hit) => hit.citation.title)).toContain('policy.md');
      expect(result.hits[0]?.score).toBe(result.hits[0]?.scores.fused);
    });

    it('a rerank model reorders the fused candidates', async () => {
      const result = await retriever({ rerank: true }).search({
        query: 'reimbursement',
        project_id: 'p1',
        top_k: 2,
      });
      expect(result.hits[0]?.citation.title).toBe('policy.md');
      expect(result.hits[0]?.scores.rerank).toBeCloseTo(0.9);
      const request = fake.requests.findLast((entry) => entry.path === '/v1/rerank');
      expect(request?.body).toMatchObject({ model: 'rerank-1', query: 'reimbursement', top_n: 2 });
    });

    it('a model server that refuses gives a structured, non-silent error', async () => {
      const broken = openaiEmbeddings('fake/embed', { baseUrl: fake.url, apiKey: 'wrong', model: 'embed-1' });
      await expect(broken.embed(['x'], { purpose: 'query' })).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringContaining('401'),
      });
      const gone = httpReranker('fake/rerank', { baseUrl: 'http://127.0.0.1:1/v1', apiKey: '', model: 'r' });
      await expect(gone.rerank('q', ['a', 'b'], { top_n: 1 })).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
      });
    });

    it('re-embedding an item replaces its vectors', async () => {
      const before = await fixture.database.db.selectFrom('knowledge_vectors').select('chunk_id').execute();
      const repository = new KnowledgeRepository(fixture.database.db);
      const item = await repository.bySource('upload', 'hr.md');
      if (item === undefined) throw new Error('hr.md missing');
      await new ChunkEmbedder({ repository, index, embeddings: async () => embeddings }).embedItem(item);
      const after = await fixture.database.db.selectFrom('knowledge_vectors').select('chunk_id').execute();
      expect(after).toHaveLength(before.length);
    });
  });
}
