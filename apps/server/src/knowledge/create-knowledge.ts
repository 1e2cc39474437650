import type { EmbeddingProvider, Reranker } from '@youyou/contracts';
import type { ArtifactService } from '../artifacts/index.ts';
import type { WorkbenchDatabase } from '../database/index.ts';
import type { ProviderRegistry } from '../providers/index.ts';
import { ChunkEmbedder } from './embedder.ts';
import { KnowledgeRepository } from './knowledge-repository.ts';
import { KnowledgeService, type KnowledgeDocuments } from './knowledge-service.ts';
import { httpReranker, openaiEmbeddings } from './model-clients.ts';
import { KnowledgeRetriever } from './retriever.ts';
import { StoredVectorIndex } from './vector-index.ts';

/** Reads a setting (`models.embedding`, `models.rerank`): `provider/model` or null. */
type SettingReader = (key: 'models.embedding' | 'models.rerank') => Promise<string | null | undefined>;

/**
 * Builds the knowledge module: repository, Retriever (full text; vectors and rerank when the
 * `models.embedding` / `models.rerank` settings name a model of that kind), and the service that
 * indexes artifacts and parsed documents.
 *
 * @example
 * const knowledge = createKnowledge({ database, artifacts, providers, setting, logger });
 * await knowledge.start();
 */
export function createKnowledge(options: {
  database: WorkbenchDatabase;
  artifacts: ArtifactService;
  providers: Pick<ProviderRegistry, 'endpointOf'>;
  setting: SettingReader;
  logger: { warn(object: object, message: string): void };
  documents?: KnowledgeDocuments;
  /** This server instance, the claimer of the items it queues (decision 0043). */
  instanceId?: string;
}): KnowledgeService {
  const { database } = options;
  const repository = new KnowledgeRepository(database.db);
  const index = new StoredVectorIndex(database.db, database.dialect);
  const endpoint = async (key: 'models.embedding' | 'models.rerank', kind: 'embedding' | 'rerank') => {
    const modelId = await options.setting(key).catch(() => null);
    if (typeof modelId !== 'string' || modelId === '') return undefined;
    const found = await options.providers.endpointOf(modelId);
    return found === undefined || found.kind !== kind ? undefined : { modelId, endpoint: found };
  };
  const embeddings = async (): Promise<EmbeddingProvider | undefined> => {
    const found = await endpoint('models.embedding', 'embedding');
    return found === undefined ? undefined : openaiEmbeddings(found.modelId, found.endpoint);
  };
  const reranker = async (): Promise<Reranker | undefined> => {
    const found = await endpoint('models.rerank', 'rerank');
    return found === undefined ? undefined : httpReranker(found.modelId, found.endpoint);
  };
  const retriever = new KnowledgeRetriever({
    db: database.db,
    dialect: database.dialect,
    repository,
    models: { embeddings, reranker, index },
  });
  return new KnowledgeService({
    repository,
    artifacts: options.artifacts,
    retriever,
    logger: options.logger,
    embedder: new ChunkEmbedder({ repository, index, embeddings }),
    ...(options.documents === undefined ? {} : { documents: options.documents }),
    ...(options.instanceId === undefined ? {} : { instanceId: options.instanceId }),
  });
}
