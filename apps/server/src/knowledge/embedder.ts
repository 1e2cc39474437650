import type { EmbeddingProvider, KnowledgeItem, VectorIndex } from '@youyou/contracts';
import type { KnowledgeRepository } from './knowledge-repository.ts';

/** The embedding stage of indexing; absent, or without a model, items get full text only. */
export interface Embedder {
  /** Embeds an item's chunks; the number stored, or undefined when no embedding model is set. */
  embedItem(item: KnowledgeItem): Promise<number | undefined>;
}

/**
 * Embeds each chunk (heading path and text) with the configured embedding model and stores the
 * vectors in the VectorIndex, replacing the item's earlier ones.
 *
 * @example
 * const embedder = new ChunkEmbedder({ repository, index, embeddings: async () => provider });
 */
export class ChunkEmbedder implements Embedder {
  readonly #repository: KnowledgeRepository;
  readonly #index: VectorIndex;
  readonly #embeddings: () => Promise<EmbeddingProvider | undefined>;

  constructor(options: {
    repository: KnowledgeRepository;
    index: VectorIndex;
    embeddings: () => Promise<EmbeddingProvider | undefined>;
  }) {
    this.#repository = options.repository;
    this.#index = options.index;
    this.#embeddings = options.embeddings;
  }

  async embedItem(item: KnowledgeItem): Promise<number | undefined> {
    const provider = await this.#embeddings();
    if (provider === undefined) return undefined;
    const chunks = await this.#repository.chunkTexts(item.id);
    const vectors = await provider.embed(
      chunks.map((chunk) =>
        chunk.heading_text === '' ? chunk.text : `${chunk.heading_text}\n${chunk.text}`,
      ),
      { purpose: 'document' },
    );
    await this.#index.deleteKnowledge(item.id);
    await this.#index.upsert(
      provider.id,
      chunks.map((chunk, index) => ({
        chunk_id: String(chunk.id),
        knowledge_id: item.id,
        project_id: item.project_id,
        vector: vectors[index] ?? new Float32Array(0),
      })),
    );
    return chunks.length;
  }
}
