import { useMutation, useQuery, type QueryClient } from '@tanstack/react-query';
import type { DocumentView, ParseFailureReason } from '@youyou/contracts';
import type { ReactElement } from 'react';
import type { LiveConversations } from '../conversation-state/index.ts';
import { useTranslation, type MessageKey } from '../i18n/index.ts';
import { useOptionalServices } from '../services/index.ts';
import './documents.css';

/** The query key of an upload's document (null: the upload has none — an image, JSON …). */
export function uploadDocumentKey(uploadId: string): readonly ['upload-document', string] {
  return ['upload-document', uploadId];
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'NOT_FOUND';
}

/**
 * Keeps each upload's document query current from the live `document.status` events of the
 * conversations on screen (queued → parsing with progress → parsed or failed).
 *
 * @example
 * const stop = syncDocuments(live, queryClient);
 */
export function syncDocuments(live: LiveConversations, queryClient: QueryClient): () => void {
  return live.onEvent((_conversationId, event) => {
    if (event.type !== 'document.status') return;
    const { document } = event.payload;
    // The project's Documents tab reads lists; a change of one document refreshes them.
    void queryClient.invalidateQueries({ queryKey: ['project-documents', document.project_id] });
    void queryClient.invalidateQueries({ queryKey: ['knowledge', document.project_id] });
    if (document.upload_id === null) return;
    const key = uploadDocumentKey(document.upload_id);
    const current = queryClient.getQueryData<DocumentView | null>(key);
    // Events of one document arrive in order; a late page of an older state never wins.
    if (current !== undefined && current !== null && current.updated_at > document.updated_at) return;
    queryClient.setQueryData<DocumentView | null>(key, document);
  });
}

/**
 * The document of an upload, live: from the events when its conversation is open, and polled
 * while it is queued or parsing (an upload not yet in a conversation has no event stream).
 */
export function useUploadDocument(uploadId: string | undefined) {
  const services = useOptionalServices();
  return useQuery({
    queryKey: uploadDocumentKey(uploadId ?? ''),
    enabled: uploadId !== undefined && services !== undefined,
    queryFn: async (): Promise<DocumentView | null> => {
      try {
        return await (services as NonNullable<typeof services>).api.getUploadDocument(uploadId ?? '');
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    retry: false,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'queued' || status === 'parsing' ? 1000 : false;
    },
  });
}

const REASON_KEYS: Record<ParseFailureReason, MessageKey> = {
  no_text_layer: 'documents.reason.no_text_layer',
  encrypted: 'documents.reason.encrypted',
  corrupt: 'documents.reason.corrupt',
  too_large: 'documents.reason.too_large',
  wrong_type: 'documents.reason.wrong_type',
  empty: 'documents.reason.empty',
  unsupported: 'documents.reason.unsupported',
  timeout: 'documents.reason.timeout',
  service_error: 'documents.reason.service_error',
};

const HINT_KEYS: Record<ParseFailureReason, MessageKey> = {
  no_text_layer: 'documents.hint.no_text_layer',
  encrypted: 'documents.hint.encrypted',
  corrupt: 'documents.hint.corrupt',
  too_large: 'documents.hint.too_large',
  wrong_type: 'documents.hint.wrong_type',
  empty: 'documents.hint.empty',
  unsupported: 'documents.hint.unsupported',
  timeout: 'documents.hint.timeout',
  service_error: 'documents.hint.service_error',
};

/** What was read, in a few words: pages, slides or sheets, else words. */
function summaryOf(document: DocumentView, t: ReturnType<typeof useTranslation>): string {
  const metadata = document.metadata;
  if (metadata === null) return t('documents.parsed');
  if (metadata.pages !== null) return t('documents.parsedPages', { count: metadata.pages });
  if (metadata.slides !== null) return t('documents.parsedSlides', { count: metadata.slides });
  if (metadata.sheets !== null) return t('documents.parsedSheets', { count: metadata.sheets.length });
  return t('documents.parsedWords', { count: metadata.word_count });
}

/**
 * The parse status of an attached file (spec §4.11 "失败呈递"): waiting, reading with progress,
 * read (with what was read), or could not be read — the reason, what to do, and a retry. Renders
 * nothing for files no parser reads (images).
 */
export function DocumentStatus({ uploadId }: { uploadId: string }): ReactElement | null {
  const t = useTranslation();
  const services = useOptionalServices();
  const query = useUploadDocument(uploadId);
  const retry = useMutation({
    mutationFn: (documentId: string) =>
      (services as NonNullable<typeof services>).api.retryDocument(documentId),
    onSuccess: (document) => services?.queryClient.setQueryData(uploadDocumentKey(uploadId), document),
  });
  const document = query.data;
  if (document === undefined || document === null) return null;
  if (document.status === 'queued' || document.status === 'parsing') {
    const percent = document.progress === null ? null : Math.round(document.progress * 100);
    return (
      <span className="document-status busy" data-status={document.status} role="status">
        <span className="spinner" aria-hidden="true" />
        {document.status === 'queued'
          ? t('documents.queued')
          : percent === null || percent === 0
            ? t('documents.parsing')
            : t('documents.parsingPercent', { percent })}
      </span>
    );
  }
  if (document.status === 'failed') {
    const reason = document.failure?.reason ?? 'corrupt';
    return (
      <span className="document-status failed" data-status="failed" data-reason={reason} role="alert">
        <span className="document-failure">{t('documents.failed', { reason: t(REASON_KEYS[reason]) })}</span>
        <span className="document-hint">{t(HINT_KEYS[reason])}</span>
        <button
          type="button"
          className="button document-retry"
          disabled={retry.isPending}
          onClick={(event) => {
            event.preventDefault();
            event.stopPropagation();
            retry.mutate(document.id);
          }}
        >
          {t('documents.retry')}
        </button>
      </span>
    );
  }
  return (
    <span className="document-status parsed" data-status={document.status}>
      {summaryOf(document, t)}
    </span>
  );
}
