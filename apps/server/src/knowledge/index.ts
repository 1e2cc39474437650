export { blockChunker } from './chunker.ts';
export { artifactBlocks, markdownBlocks } from './artifact-blocks.ts';
export { ftsPhrase, indexable, likePattern, queryTerms } from './query-terms.ts';
export { snippetOf, markedSnippet } from './snippet.ts';
export { fullTextSearch, CANDIDATE_CAP } from './fulltext.ts';
export type { ChunkFilter, ScoredChunk } from './fulltext.ts';
export { reciprocalRankFusion, RRF_K } from './fusion.ts';
export { KnowledgeRepository, itemOfRow } from './knowledge-repository.ts';
export type { ItemSource, StoredChunk } from './knowledge-repository.ts';
export { KnowledgeRetriever } from './retriever.ts';
export type { RetrievalModels } from './retriever.ts';
export { KnowledgeService } from './knowledge-service.ts';
export type {
  DocumentExcerpt,
  KnowledgeDocuments,
  KnowledgePackFile,
  KnowledgePackParser,
} from './knowledge-service.ts';
export { ChunkEmbedder } from './embedder.ts';
export type { Embedder } from './embedder.ts';
export { StoredVectorIndex } from './vector-index.ts';
export { httpReranker, openaiEmbeddings, normalise } from './model-clients.ts';
export type { ModelEndpoint } from './model-clients.ts';
export { createKnowledge } from './create-knowledge.ts';
export { checkReferences, referenceBlocks, referenceCandidates } from './references.ts';
export { knowledgeTools } from './knowledge-tools.ts';
