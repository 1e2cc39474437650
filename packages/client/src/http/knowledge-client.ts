import type {
  KnowledgeDocumentPage,
  KnowledgeItem,
  KnowledgeList,
  KnowledgeRebuildResult,
  ReferenceCandidate,
  RetrievalQueryInput,
  RetrievalResult,
} from '@youyou/contracts';
import type { Connection } from '../connection/index.ts';

/** A project's knowledge, search and the `@` picker (spec §4.12, §4.14), as the workbench client has them. */
export interface KnowledgeClientMethods {
  /** A project's knowledge with its index status (null: knowledge outside any project). */
  listKnowledge(projectId: string | null): Promise<KnowledgeList>;
  getKnowledgeItem(id: string): Promise<KnowledgeItem>;
  /** Indexes one item again. */
  retryKnowledge(id: string): Promise<KnowledgeItem>;
  /** Re-indexes a project's knowledge, or only its failed items. */
  rebuildKnowledge(projectId: string, options?: { onlyFailed?: boolean }): Promise<KnowledgeRebuildResult>;
  searchKnowledge(query: RetrievalQueryInput): Promise<RetrievalResult>;
  /** Blocks of a knowledge item's document (`id`: item, document, upload or artifact id). */
  readKnowledgeDocument(
    id: string,
    range?: { from?: number; to?: number; page?: number },
  ): Promise<KnowledgeDocumentPage>;
  /** Candidates for the composer's `@` picker. */
  listReferences(options: {
    projectId?: string;
    conversationId?: string;
    query?: string;
    limit?: number;
  }): Promise<ReferenceCandidate[]>;
}

const segment = encodeURIComponent;

/** The knowledge methods over one connection. */
export function knowledgeClientMethods(connection: Connection): KnowledgeClientMethods {
  const json = connection.json.bind(connection);
  return {
    listKnowledge: (projectId) =>
      json('GET', projectId === null ? '/api/knowledge' : `/api/projects/${segment(projectId)}/knowledge`),
    getKnowledgeItem: (id) => json('GET', `/api/knowledge/${segment(id)}`),
    retryKnowledge: (id) => json('POST', `/api/knowledge/${segment(id)}/retry`),
    rebuildKnowledge: (projectId, options = {}) =>
      json('POST', `/api/projects/${segment(projectId)}/knowledge/rebuild`, {
        body: options.onlyFailed === undefined ? {} : { only_failed: options.onlyFailed },
      }),
    searchKnowledge: (query) => json('POST', '/api/knowledge/search', { body: query }),
    readKnowledgeDocument: (id, range = {}) =>
      json('GET', `/api/knowledge/read/${segment(id)}`, { query: range }),
    listReferences: async (options) =>
      (
        await json<{ candidates: ReferenceCandidate[] }>('GET', '/api/references', {
          query: {
            project_id: options.projectId,
            conversation_id: options.conversationId,
            query: options.query,
            limit: options.limit,
          },
        })
      ).candidates,
  };
}
