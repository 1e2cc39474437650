import type { DocumentView, KnowledgeItem, KnowledgeScope } from '@youyou/contracts';

/** Where a row of the project's Documents tab is: its index status, or kept to its conversation. */
export type ProjectDocumentStatus = 'queued' | 'parsing' | 'indexed' | 'failed' | 'conversation';

/** One row of the project's Documents tab. */
export interface ProjectDocumentRow {
  key: string;
  name: string;
  status: ProjectDocumentStatus;
  /** Why it failed (the parser's or the indexer's message). */
  reason: string | undefined;
  /** What a Retry parses again (a failed parse) or indexes again (a failed index). */
  retry: { kind: 'document' | 'knowledge'; id: string } | undefined;
  /** The conversation the file was uploaded in. */
  conversationId: string | null;
  /** The document whose scope the toggle changes (uploads only). */
  documentId: string | undefined;
  scope: KnowledgeScope | undefined;
  /** The id the viewer opens. */
  openId: string;
}

/**
 * The project's Documents tab: its uploaded documents — whose parse status comes first (a file
 * being read or that could not be read has no knowledge item yet), then their index status or
 * "kept to the conversation" — and its other knowledge items (artifacts), newest first.
 *
 * @example
 * projectDocumentRows(await api.listProjectDocuments('p1'), (await api.listKnowledge('p1')).items);
 */
export function projectDocumentRows(
  documents: readonly DocumentView[],
  items: readonly KnowledgeItem[],
): ProjectDocumentRow[] {
  const used = new Set<string>();
  const rows = documents.map((document): ProjectDocumentRow => {
    const item = items.find(
      (candidate) =>
        candidate.document_id === document.id ||
        (document.upload_id !== null &&
          candidate.source === 'upload' &&
          candidate.source_id === document.upload_id),
    );
    if (item !== undefined) used.add(item.id);
    const base = {
      key: document.id,
      name: document.name,
      conversationId: document.conversation_id,
      documentId: document.upload_id === null ? undefined : document.id,
      scope: document.upload_id === null ? undefined : document.knowledge_scope,
      openId: document.id,
    };
    if (document.status === 'queued' || document.status === 'parsing')
      return { ...base, status: document.status, reason: undefined, retry: undefined };
    if (document.status === 'failed')
      return {
        ...base,
        status: 'failed',
        reason: document.failure?.message,
        retry: { kind: 'document', id: document.id },
      };
    if (document.knowledge_scope === 'conversation')
      return { ...base, status: 'conversation', reason: undefined, retry: undefined };
    if (item === undefined) return { ...base, status: 'queued', reason: undefined, retry: undefined };
    return {
      ...base,
      status: item.status,
      reason: item.error?.message,
      retry: item.status === 'failed' ? { kind: 'knowledge', id: item.id } : undefined,
    };
  });
  const others = items
    .filter((item) => !used.has(item.id) && item.source !== 'upload')
    .map((item): ProjectDocumentRow => ({
      key: item.id,
      name: item.title,
      status: item.status,
      reason: item.error?.message,
      retry: item.status === 'failed' ? { kind: 'knowledge', id: item.id } : undefined,
      conversationId: null,
      documentId: undefined,
      scope: undefined,
      openId: item.id,
    }));
  return [...rows, ...others];
}
