import { z } from 'zod';
import { DocumentBlockSchema } from '../documents/index.ts';
import { KnowledgeSourceSchema } from './search.ts';

/**
 * Where a knowledge item is on its way into the index (spec §4.12 "索引状态"): `queued` waits,
 * `parsing` is being read and cut, `indexed` is searchable, `failed` says why in `error`.
 *
 * @example
 * KnowledgeStatusSchema.parse('indexed');
 */
export const KNOWLEDGE_STATUSES = ['queued', 'parsing', 'indexed', 'failed'] as const;
export const KnowledgeStatusSchema = z.enum(KNOWLEDGE_STATUSES);
export type KnowledgeStatus = z.infer<typeof KnowledgeStatusSchema>;

/**
 * One document of a project's knowledge: an upload or an artifact, with its index status.
 * `document_id` is the parsed document the chunks were cut from (null until it is parsed).
 *
 * @example
 * items.filter((item) => item.status === 'failed').map((item) => item.error?.message);
 */
export const KnowledgeItemSchema = z
  .object({
    id: z.string(),
    project_id: z.string().nullable(),
    source: KnowledgeSourceSchema,
    source_id: z.string(),
    document_id: z.string().nullable(),
    title: z.string(),
    media_type: z.string(),
    status: KnowledgeStatusSchema,
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    chunk_count: z.number().int().nonnegative(),
    /** Vectors stored for the chunks (0 when no embedding model is set). */
    embedded_count: z.number().int().nonnegative(),
    /** How many times indexing was tried; a retry or rebuild adds one. */
    attempts: z.number().int().nonnegative(),
    /** The artifact version indexed (1 for uploads). */
    source_version: z.number().int().nonnegative(),
    indexed_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'KnowledgeItem' });
export type KnowledgeItem = z.infer<typeof KnowledgeItemSchema>;

/**
 * A project's knowledge, newest first, with a count per status.
 *
 * @example
 * const list: KnowledgeList = await client.knowledge.list('p1');
 */
export const KnowledgeListSchema = z
  .object({
    items: z.array(KnowledgeItemSchema),
    counts: z.record(KnowledgeStatusSchema, z.number().int().nonnegative()),
  })
  .meta({ id: 'KnowledgeList' });
export type KnowledgeList = z.infer<typeof KnowledgeListSchema>;

/**
 * `POST /api/projects/:id/knowledge/rebuild`: re-cut and re-index every item (or only failed ones).
 *
 * @example
 * KnowledgeRebuildSchema.parse({ only_failed: true });
 */
export const KnowledgeRebuildSchema = z
  .object({ only_failed: z.boolean().optional() })
  .meta({ id: 'KnowledgeRebuild' });
export type KnowledgeRebuild = z.infer<typeof KnowledgeRebuildSchema>;

/** How many items a rebuild queued. */
export const KnowledgeRebuildResultSchema = z
  .object({ queued: z.number().int().nonnegative() })
  .meta({ id: 'KnowledgeRebuildResult' });
export type KnowledgeRebuildResult = z.infer<typeof KnowledgeRebuildResultSchema>;

/**
 * Which models the knowledge pipeline uses beyond full text (spec §4.12, off by default): an
 * `embedding` model for hybrid search and a `rerank` model, both `provider/model` ids of models of
 * that kind. Null: not used.
 *
 * @example
 * KnowledgeModelsSchema.parse({ embedding_model: 'local/bge-m3', rerank_model: null });
 */
export const KnowledgeModelsSchema = z
  .object({
    embedding_model: z.string().min(1).max(200).nullable(),
    rerank_model: z.string().min(1).max(200).nullable(),
  })
  .meta({ id: 'KnowledgeModels' });
export type KnowledgeModels = z.infer<typeof KnowledgeModelsSchema>;

/**
 * `GET /api/knowledge/read/{id}?from=&to=&page=`: blocks of a knowledge item's document (`from`
 * inclusive, `to` exclusive), each with its index — the block a citation's `#block-N` names. `id` is
 * a knowledge item, document, upload or artifact id.
 *
 * @example
 * const page: KnowledgeDocumentPage = await client.knowledge.read('k1', { from: 10, to: 30 });
 */
export const KnowledgeDocumentPageSchema = z
  .object({
    item: KnowledgeItemSchema,
    total: z.number().int().nonnegative(),
    from: z.number().int().nonnegative(),
    to: z.number().int().nonnegative(),
    blocks: z.array(z.object({ index: z.number().int().nonnegative(), block: DocumentBlockSchema })),
  })
  .meta({ id: 'KnowledgeDocumentPage' });
export type KnowledgeDocumentPage = z.infer<typeof KnowledgeDocumentPageSchema>;
