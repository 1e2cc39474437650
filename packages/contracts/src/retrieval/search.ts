import { z } from 'zod';
import { ChunkLocationSchema } from './chunks.ts';

/**
 * What a knowledge item came from: a file the user uploaded, an artifact a run wrote, or an
 * extension's knowledge base (spec §4.12 "插件知识库", source-tagged).
 *
 * @example
 * KnowledgeSourceSchema.parse('artifact');
 */
export const KnowledgeSourceSchema = z.enum(['upload', 'artifact', 'extension']);
export type KnowledgeSource = z.infer<typeof KnowledgeSourceSchema>;

/**
 * How a search ranks: `fulltext` only, or `hybrid` (full text and vectors fused by reciprocal
 * rank, then reranked when a rerank model is set). `auto` is hybrid when an embedding model is
 * configured, full text otherwise.
 */
export const RetrievalModeSchema = z.enum(['auto', 'fulltext', 'hybrid']);
export type RetrievalMode = z.infer<typeof RetrievalModeSchema>;

/**
 * A search over a project's knowledge. `project_id` null searches knowledge outside any project;
 * `document_ids` and `sources` narrow it further.
 *
 * @example
 * RetrievalQuerySchema.parse({ query: '季度营收', project_id: 'p1', top_k: 5 });
 */
export const RetrievalQuerySchema = z
  .object({
    query: z.string().trim().min(1).max(1000),
    project_id: z.string().max(128).nullable().optional(),
    document_ids: z.array(z.string().min(1).max(128)).max(100).optional(),
    sources: z.array(KnowledgeSourceSchema).max(3).optional(),
    top_k: z.number().int().min(1).max(50).default(8),
    mode: RetrievalModeSchema.default('auto'),
  })
  .meta({ id: 'RetrievalQuery' });
export type RetrievalQuery = z.infer<typeof RetrievalQuerySchema>;
export type RetrievalQueryInput = z.input<typeof RetrievalQuerySchema>;

/** A marked stretch of a snippet: `[start, end)` in UTF-16 code units. */
export const HighlightSchema = z
  .object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() })
  .meta({ id: 'Highlight' });
export type Highlight = z.infer<typeof HighlightSchema>;

/**
 * Where an answer's fact comes from (spec §4.12): the document, where in it, and a snippet with the
 * match marked. `link` is the `youyou-doc:` link the answer renders (see `documentLink`).
 *
 * @example
 * `[${citation.title}, p. ${citation.location.page}](${citation.link})`;
 */
export const CitationSchema = z
  .object({
    document_id: z.string(),
    knowledge_id: z.string(),
    source: KnowledgeSourceSchema,
    /** The upload's or artifact's id. */
    source_id: z.string(),
    title: z.string(),
    location: ChunkLocationSchema,
    heading_path: z.array(z.string()),
    block_start: z.number().int().nonnegative(),
    block_end: z.number().int().nonnegative(),
    /** Plain text around the match, at most a few hundred characters. */
    snippet: z.string(),
    /** The matched stretches of `snippet`. */
    highlights: z.array(HighlightSchema),
    link: z.string(),
  })
  .meta({ id: 'Citation' });
export type Citation = z.infer<typeof CitationSchema>;

/** The per-stage scores of a hit (absent stages did not run). Higher is better in each. */
export const HitScoresSchema = z
  .object({
    fulltext: z.number().optional(),
    vector: z.number().optional(),
    fused: z.number().optional(),
    rerank: z.number().optional(),
  })
  .meta({ id: 'HitScores' });
export type HitScores = z.infer<typeof HitScoresSchema>;

/**
 * One search result: the chunk, its rank and scores, and its citation.
 *
 * @example
 * hits.map((hit) => hit.citation.link);
 */
export const RetrievalHitSchema = z
  .object({
    chunk_id: z.string(),
    /** 1 for the best hit. */
    rank: z.number().int().positive(),
    score: z.number(),
    scores: HitScoresSchema,
    /** The whole chunk's text. */
    text: z.string(),
    citation: CitationSchema,
  })
  .meta({ id: 'RetrievalHit' });
export type RetrievalHit = z.infer<typeof RetrievalHitSchema>;

/**
 * What a search returned, and how it ranked (`mode` is the one that ran, never `auto`).
 *
 * @example
 * const result: RetrievalResult = await retriever.search({ query: 'INV-2024-0042', top_k: 3 });
 */
export const RetrievalResultSchema = z
  .object({
    query: z.string(),
    mode: z.enum(['fulltext', 'hybrid']),
    hits: z.array(RetrievalHitSchema),
    took_ms: z.number(),
  })
  .meta({ id: 'RetrievalResult' });
export type RetrievalResult = z.infer<typeof RetrievalResultSchema>;

/**
 * The one search entry point (spec §4.12 Retriever): full text on either storage tier, vectors and
 * rerank when configured. The context assembler's knowledge slot and the `search_knowledge` tool
 * both call it.
 *
 * @example
 * const { hits } = await retriever.search({ query: 'refund policy', project_id: 'p1', top_k: 5 });
 */
export interface Retriever {
  search(query: RetrievalQueryInput, options?: { signal?: AbortSignal }): Promise<RetrievalResult>;
}

/**
 * Turns texts into vectors (spec §4.12 EmbeddingProvider; a model of kind `embedding`, §4.7).
 * `purpose` lets models with separate query and passage prompts use them.
 *
 * @example
 * const [vector] = await embeddings.embed(['季度营收'], { purpose: 'query' });
 */
export interface EmbeddingProvider {
  /** `provider/model`, stored beside each vector so a model change triggers a re-embed. */
  readonly id: string;
  embed(
    texts: readonly string[],
    options: { purpose: 'query' | 'document'; signal?: AbortSignal },
  ): Promise<Float32Array[]>;
}

/** A stored vector and what it belongs to. */
export interface VectorRecord {
  chunk_id: string;
  knowledge_id: string;
  project_id: string | null;
  vector: Float32Array;
}

/** Narrows a vector search like a full-text one. */
export interface VectorFilter {
  project_id?: string | null;
  document_ids?: readonly string[];
  sources?: readonly KnowledgeSource[];
}

/**
 * Nearest-neighbour search over chunk vectors (spec §4.12 VectorIndex, D13): one implementation per
 * storage tier behind this interface. Scores are cosine similarity, higher is nearer.
 *
 * @example
 * const near = await index.search(queryVector, { top_k: 20, filter: { project_id: 'p1' } });
 */
export interface VectorIndex {
  readonly id: string;
  upsert(model: string, records: readonly VectorRecord[]): Promise<void>;
  deleteKnowledge(knowledgeId: string): Promise<void>;
  search(
    model: string,
    vector: Float32Array,
    options: { top_k: number; filter?: VectorFilter },
  ): Promise<{ chunk_id: string; score: number }[]>;
}

/**
 * Reorders candidates by relevance to the query (spec §4.12 Reranker; a model of kind `rerank`).
 * Returns the indexes of `documents`, best first, at most `top_n`.
 *
 * @example
 * const order = await reranker.rerank('refund policy', texts, { top_n: 5 });
 */
export interface Reranker {
  readonly id: string;
  rerank(
    query: string,
    documents: readonly string[],
    options: { top_n: number; signal?: AbortSignal },
  ): Promise<{ index: number; score: number }[]>;
}
