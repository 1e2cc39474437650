import {
  RetrievalQuerySchema,
  documentLink,
  type EmbeddingProvider,
  type HitScores,
  type Reranker,
  type RetrievalHit,
  type RetrievalQueryInput,
  type RetrievalResult,
  type Retriever,
  type VectorIndex,
} from '@youyou/contracts';
import type { Kysely } from 'kysely';
import type { DialectName, Schema } from '../database/index.ts';
import { ApiError } from '../errors/index.ts';
import { reciprocalRankFusion } from './fusion.ts';
import { fullTextSearch, type ChunkFilter } from './fulltext.ts';
import type { KnowledgeRepository } from './knowledge-repository.ts';
import { looseTerms, queryTerms } from './query-terms.ts';
import { snippetOf } from './snippet.ts';

/** The optional stages (spec §4.12, off by default): each is asked per search, so settings apply at once. */
export interface RetrievalModels {
  /** The embedding model, when one is configured. */
  embeddings(): Promise<EmbeddingProvider | undefined>;
  /** The rerank model, when one is configured. */
  reranker(): Promise<Reranker | undefined>;
  index: VectorIndex;
}

/** How many candidates each stage passes on, per hit asked for. */
const DEPTH_FACTOR = 4;
const MIN_DEPTH = 20;

/**
 * The workbench's Retriever (spec §4.12): full text on the storage tier, and — when an embedding
 * model is set — vector search fused with it by reciprocal rank, then a rerank model if one is
 * set. Every hit carries its citation with a highlighted snippet.
 *
 * @example
 * const { hits } = await retriever.search({ query: '营收', project_id: 'p1', top_k: 5 });
 */
export class KnowledgeRetriever implements Retriever {
  readonly #db: Kysely<Schema>;
  readonly #dialect: DialectName;
  readonly #repository: KnowledgeRepository;
  readonly #models: RetrievalModels | undefined;

  constructor(options: {
    db: Kysely<Schema>;
    dialect: DialectName;
    repository: KnowledgeRepository;
    models?: RetrievalModels;
  }) {
    this.#db = options.db;
    this.#dialect = options.dialect;
    this.#repository = options.repository;
    this.#models = options.models;
  }

  async search(input: RetrievalQueryInput, options: { signal?: AbortSignal } = {}): Promise<RetrievalResult> {
    const started = performance.now();
    const parsed = RetrievalQuerySchema.safeParse(input);
    if (!parsed.success)
      throw new ApiError(
        'INVALID_INPUT',
        `The search is not valid: ${parsed.error.issues[0]?.message ?? ''}`,
        {
          details: {
            issues: parsed.error.issues.map((issue) => ({
              path: issue.path.join('.'),
              message: issue.message,
            })),
          },
        },
      );
    const query = parsed.data;
    const terms = queryTerms(query.query);
    const filter: ChunkFilter = {
      ...(query.project_id === undefined ? {} : { projectId: query.project_id }),
      ...(query.document_ids === undefined
        ? {}
        : { knowledgeIds: await this.#repository.idsOf(query.document_ids) }),
      ...(query.sources === undefined ? {} : { sources: query.sources }),
    };
    const embeddings = query.mode === 'fulltext' ? undefined : await this.#models?.embeddings();
    const hybrid = embeddings !== undefined && this.#models !== undefined;
    const depth = hybrid ? Math.max(MIN_DEPTH, query.top_k * DEPTH_FACTOR) : query.top_k;
    const fulltext = await fullTextSearch(this.#db, this.#dialect, terms, filter, depth);
    // Every term is required; a question in words (or a Chinese sentence) that no chunk holds
    // whole falls back to any term, ranked by how many and how rare.
    const loose = looseTerms(query.query);
    let highlightTerms = terms;
    if (fulltext.length === 0 && (terms.length > 1 || loose.join('\u0000') !== terms.join('\u0000'))) {
      const seen = new Set(fulltext.map((hit) => hit.chunkId));
      const extra = await fullTextSearch(this.#db, this.#dialect, loose, filter, depth, 'any');
      for (const hit of extra) if (!seen.has(hit.chunkId) && fulltext.length < depth) fulltext.push(hit);
      highlightTerms = [...new Set([...terms, ...loose])];
    }
    const scores = new Map<number, HitScores>();
    for (const hit of fulltext) scores.set(hit.chunkId, { fulltext: hit.score });
    let order = fulltext.map((hit) => hit.chunkId);
    if (hybrid) {
      const [vector] = await embeddings.embed([query.query], {
        purpose: 'query',
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      const near =
        vector === undefined
          ? []
          : await this.#models.index.search(embeddings.id, vector, {
              top_k: depth,
              filter: {
                ...(filter.projectId === undefined ? {} : { project_id: filter.projectId }),
                ...(filter.knowledgeIds === undefined ? {} : { document_ids: filter.knowledgeIds }),
                ...(filter.sources === undefined ? {} : { sources: filter.sources }),
              },
            });
      for (const hit of near) {
        const id = Number(hit.chunk_id);
        scores.set(id, { ...scores.get(id), vector: hit.score });
      }
      const fused = reciprocalRankFusion([order, near.map((hit) => Number(hit.chunk_id))]);
      for (const { id, score } of fused) scores.set(id, { ...scores.get(id), fused: score });
      order = fused.map((entry) => entry.id);
    }
    let chunks = await this.#repository.chunks(order.slice(0, depth));
    const reranker =
      query.mode === 'fulltext' || chunks.length < 2 ? undefined : await this.#models?.reranker();
    if (reranker !== undefined) {
      const ranked = await reranker.rerank(
        query.query,
        chunks.map((chunk) => chunk.text),
        { top_n: query.top_k, ...(options.signal === undefined ? {} : { signal: options.signal }) },
      );
      const reordered = [];
      for (const { index, score } of ranked) {
        const chunk = chunks[index];
        if (chunk === undefined) continue;
        scores.set(chunk.id, { ...scores.get(chunk.id), rerank: score });
        reordered.push(chunk);
      }
      chunks = reordered;
    }
    const hits: RetrievalHit[] = chunks.slice(0, query.top_k).map((chunk, index) => {
      const hitScores = scores.get(chunk.id) ?? {};
      const { snippet, highlights } = snippetOf(chunk.text, highlightTerms);
      return {
        chunk_id: String(chunk.id),
        rank: index + 1,
        score: hitScores.rerank ?? hitScores.fused ?? hitScores.fulltext ?? hitScores.vector ?? 0,
        scores: hitScores,
        text: chunk.text,
        citation: {
          document_id: chunk.item.document_id ?? chunk.item.id,
          knowledge_id: chunk.item.id,
          source: chunk.item.source,
          source_id: chunk.item.source_id,
          title: chunk.item.title,
          location: chunk.location,
          heading_path: chunk.heading_path,
          block_start: chunk.block_start,
          block_end: chunk.block_end,
          snippet,
          highlights,
          link: documentLink(chunk.item.id, chunk.block_start),
        },
      };
    });
    return {
      query: query.query,
      mode: hybrid ? 'hybrid' : 'fulltext',
      hits,
      took_ms: Math.round((performance.now() - started) * 100) / 100,
    };
  }
}
