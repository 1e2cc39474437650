// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { DocumentView, WorkbenchEvent } from '@youyou/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocumentStatus, syncDocuments, uploadDocumentKey } from '../src/documents/index.ts';
import { usePreferences } from '../src/preferences/index.ts';
import { ServicesProvider, type AppServices } from '../src/services/index.ts';
import { fakeApi, testServices } from './fake-api.ts';

afterEach(cleanup);
beforeEach(() => usePreferences.getState().set({ language: 'en' }));

function documentView(changes: Partial<DocumentView>): DocumentView {
  return {
    id: 'd1',
    project_id: null,
    conversation_id: 'c1',
    message_id: null,
    upload_id: 'u1',
    artifact_id: null,
    name: 'report.pdf',
    media_type: 'application/pdf',
    format: 'pdf',
    size: 100,
    status: 'queued',
    progress: null,
    failure: null,
    metadata: null,
    provenance: null,
    block_count: 0,
    knowledge_scope: 'project',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...changes,
  };
}

function show(services: AppServices) {
  return render(
    <QueryClientProvider client={services.queryClient}>
      <ServicesProvider services={services}>
        <DocumentStatus uploadId="u1" />
      </ServicesProvider>
    </QueryClientProvider>,
  );
}

describe('the parse status of an attachment', () => {
  it('shows a failure with its reason, what to do, and retries it', async () => {
    let retried = '';
    const services = testServices(
      fakeApi({
        getUploadDocument: async () =>
          documentView({
            status: 'failed',
            failure: { reason: 'encrypted', message: 'The PDF is protected with a password.', parser: null },
          }),
        retryDocument: async (id) => {
          retried = id;
          return documentView({ status: 'queued' });
        },
      }),
    );
    show(services);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not be read: it is protected with a password.');
    expect(alert.textContent).toContain('Remove the password, then upload it again.');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Waiting to be read…')).toBeTruthy();
    expect(retried).toBe('d1');
  });

  it('follows document.status events live: parsing with progress, then what was read', async () => {
    const services = testServices(
      fakeApi({ getUploadDocument: async () => documentView({ status: 'queued' }) }),
    );
    const listeners: ((conversationId: string, event: WorkbenchEvent) => void)[] = [];
    services.live.onEvent = (listener) => {
      listeners.push(listener);
      return () => {};
    };
    syncDocuments(services.live, services.queryClient);
    show(services);
    expect(await screen.findByText('Waiting to be read…')).toBeTruthy();
    const emit = (document: DocumentView) =>
      act(() => {
        for (const listener of listeners)
          listener('c1', {
            seq: 1,
            run_id: null,
            conversation_id: 'c1',
            ts: document.updated_at,
            v: 1,
            type: 'document.status',
            payload: { document },
          });
      });
    emit(documentView({ status: 'parsing', progress: 0.4, updated_at: '2026-01-01T00:00:01.000Z' }));
    expect(await screen.findByText('Reading… 40%')).toBeTruthy();
    emit(
      documentView({
        status: 'parsed',
        updated_at: '2026-01-01T00:00:02.000Z',
        metadata: {
          title: null,
          author: null,
          pages: 12,
          slides: null,
          sheets: null,
          word_count: 900,
          char_count: 5000,
          language: 'en',
        },
      }),
    );
    expect(await screen.findByText('Read: 12 page(s)')).toBeTruthy();
    expect(services.queryClient.getQueryData<DocumentView>(uploadDocumentKey('u1'))?.status).toBe('parsed');
  });

  it('speaks Chinese, and shows nothing for a file without a document', async () => {
    usePreferences.getState().set({ language: 'zh-CN' });
    const services = testServices(
      fakeApi({
        getUploadDocument: async () =>
          documentView({ status: 'failed', failure: { reason: 'no_text_layer', message: '', parser: null } }),
      }),
    );
    show(services);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('无法读取：没有文本层（扫描件或图片）。');
    cleanup();
    const none = testServices(
      fakeApi({
        getUploadDocument: async () => {
          throw Object.assign(new Error('no document'), { code: 'NOT_FOUND' });
        },
      }),
    );
    const { container } = show(none);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(container.textContent).toBe('');
  });
});
