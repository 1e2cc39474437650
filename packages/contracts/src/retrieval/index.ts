/**
 * Retrieval (spec agent-system-skeleton-design-r4 §4.12) and `@` references (§4.14): chunks cut
 * from parsed documents, the Retriever with citations, the optional embedding / vector / rerank
 * stages, a project's knowledge and its index status.
 */
export {
  RETRIEVAL_CONTRACT_VERSION,
  ChunkLocationSchema,
  ChunkSchema,
  ChunkerOptionsSchema,
} from './chunks.ts';
export type { ChunkLocation, Chunk, ChunkDraft, ChunkerOptions, Chunker } from './chunks.ts';
export {
  KnowledgeSourceSchema,
  RetrievalModeSchema,
  RetrievalQuerySchema,
  HighlightSchema,
  CitationSchema,
  HitScoresSchema,
  RetrievalHitSchema,
  RetrievalResultSchema,
} from './search.ts';
export type {
  KnowledgeSource,
  RetrievalMode,
  RetrievalQuery,
  RetrievalQueryInput,
  Highlight,
  Citation,
  HitScores,
  RetrievalHit,
  RetrievalResult,
  Retriever,
  EmbeddingProvider,
  VectorRecord,
  VectorFilter,
  VectorIndex,
  Reranker,
} from './search.ts';
export {
  KNOWLEDGE_STATUSES,
  KnowledgeStatusSchema,
  KnowledgeItemSchema,
  KnowledgeListSchema,
  KnowledgeRebuildSchema,
  KnowledgeRebuildResultSchema,
  KnowledgeModelsSchema,
  KnowledgeDocumentPageSchema,
} from './knowledge.ts';
export type {
  KnowledgeStatus,
  KnowledgeItem,
  KnowledgeList,
  KnowledgeRebuild,
  KnowledgeRebuildResult,
  KnowledgeModels,
  KnowledgeDocumentPage,
} from './knowledge.ts';
export {
  ReferenceKindSchema,
  MessageReferenceSchema,
  ReferenceCandidateSchema,
  ReferenceCandidateListSchema,
  DOCUMENT_LINK_SCHEME,
  documentLink,
  parseDocumentLink,
} from './references.ts';
export type {
  ReferenceKind,
  MessageReference,
  ReferenceCandidate,
  ReferenceCandidateList,
} from './references.ts';
