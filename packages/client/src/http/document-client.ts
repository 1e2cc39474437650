import type {
  DocumentBlocksPage,
  DocumentParsePolicy,
  DocumentStatus,
  DocumentView,
  KnowledgeScope,
  ParserInfo,
} from '@youyou/contracts';
import type { Connection } from '../connection/index.ts';

/** Parsed documents, parse policies and parsers (spec §4.11), as the workbench client has them. */
export interface DocumentClientMethods {
  /** Parsed documents (spec §4.11): a conversation's, newest first; kept live by `document.status` events. */
  listConversationDocuments(conversationId: string, status?: DocumentStatus): Promise<DocumentView[]>;
  listProjectDocuments(projectId: string, status?: DocumentStatus): Promise<DocumentView[]>;
  getDocument(documentId: string): Promise<DocumentView>;
  /** The document parsed from an upload; `ApiError` NOT_FOUND for images and unparsed formats. */
  getUploadDocument(uploadId: string): Promise<DocumentView>;
  /** Blocks `from` (inclusive) to `to` (exclusive), or one page. */
  getDocumentBlocks(
    documentId: string,
    range?: { from?: number; to?: number; page?: number },
  ): Promise<DocumentBlocksPage>;
  /** Keeps a document to its conversation, or puts it (back) in its project's knowledge. */
  setDocumentKnowledgeScope(documentId: string, scope: KnowledgeScope): Promise<DocumentView>;
  /** Parses a failed document again. */
  retryDocument(documentId: string): Promise<DocumentView>;
  getParsePolicy(projectId: string): Promise<DocumentParsePolicy>;
  setParsePolicy(projectId: string, policy: DocumentParsePolicy): Promise<DocumentParsePolicy>;
  /** Registered parsers with their source tags (the external service's availability for a project). */
  listParsers(projectId?: string): Promise<ParserInfo[]>;
}

const segment = encodeURIComponent;

/** The document methods over one connection. */
export function documentClientMethods(connection: Connection): DocumentClientMethods {
  const json = connection.json.bind(connection);
  return {
    listConversationDocuments: async (conversationId, status) =>
      (
        await json<{ documents: DocumentView[] }>(
          'GET',
          `/api/conversations/${segment(conversationId)}/documents`,
          { query: status === undefined ? {} : { status } },
        )
      ).documents,
    listProjectDocuments: async (projectId, status) =>
      (
        await json<{ documents: DocumentView[] }>('GET', `/api/projects/${segment(projectId)}/documents`, {
          query: status === undefined ? {} : { status },
        })
      ).documents,
    getDocument: (documentId) => json('GET', `/api/documents/${segment(documentId)}`),
    getUploadDocument: (uploadId) => json('GET', `/api/uploads/${segment(uploadId)}/document`),
    getDocumentBlocks: (documentId, range = {}) =>
      json('GET', `/api/documents/${segment(documentId)}/blocks`, { query: range }),
    setDocumentKnowledgeScope: (documentId, scope) =>
      json('PATCH', `/api/documents/${segment(documentId)}`, { body: { knowledge_scope: scope } }),
    retryDocument: (documentId) => json('POST', `/api/documents/${segment(documentId)}/retry`),
    getParsePolicy: (projectId) => json('GET', `/api/projects/${segment(projectId)}/parse-policy`),
    setParsePolicy: (projectId, policy) =>
      json('PUT', `/api/projects/${segment(projectId)}/parse-policy`, { body: policy }),
    listParsers: async (projectId) =>
      (await json<{ parsers: ParserInfo[] }>('GET', '/api/parsers', { query: { project_id: projectId } }))
        .parsers,
  };
}
