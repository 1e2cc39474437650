// @vitest-environment happy-dom
// The document viewer's knowledge-scope box (issue 25): an upload kept to its conversation has no
// knowledge item, so the viewer reads it from the document itself — every page of its blocks — and
// its box moves it into the project's knowledge.
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentBlocksPage, DocumentView, KnowledgeScope } from '@youyou/contracts';
import { ApiError } from '../src/api/index.ts';
import { DocumentTab, useDocumentViewer } from '../src/knowledge/index.ts';
import { usePreferences } from '../src/preferences/index.ts';
import { ServicesProvider } from '../src/services/index.ts';
import { fakeApi, testServices } from './fake-api.ts';

afterEach(cleanup);
beforeEach(() => {
  usePreferences.getState().set({ language: 'en' });
  useDocumentViewer.getState().close();
});

const BLOCKS = 1200;

function documentView(scope: KnowledgeScope): DocumentView {
  return {
    id: 'd1',
    project_id: 'p1',
    conversation_id: 'c1',
    message_id: null,
    upload_id: 'u1',
    artifact_id: null,
    name: 'ledger.docx',
    media_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    format: 'docx',
    size: 20_000,
    status: 'parsed',
    progress: null,
    failure: null,
    metadata: null,
    provenance: null,
    block_count: BLOCKS,
    knowledge_scope: scope,
    created_at: '',
    updated_at: '',
  };
}

describe('the document viewer', () => {
  it('reads a document kept to its conversation page by page, and its box puts it in the project knowledge', async () => {
    let scope: KnowledgeScope = 'conversation';
    const changes: KnowledgeScope[] = [];
    const api = fakeApi({
      // No knowledge item: the upload is kept to its conversation.
      readKnowledgeDocument: () =>
        Promise.reject(new ApiError('NOT_FOUND', 'No document or knowledge item has id d1.', 404)),
      getDocument: () => Promise.resolve(documentView(scope)),
      getDocumentBlocks: (_id, range = {}): Promise<DocumentBlocksPage> => {
        const from = range.from ?? 0;
        const to = Math.min(BLOCKS, from + 500);
        return Promise.resolve({
          document_id: 'd1',
          total: BLOCKS,
          from,
          to,
          blocks: Array.from({ length: to - from }, (_unused, offset) => ({
            index: from + offset,
            block: { type: 'paragraph', text: `Entry ${from + offset}`, location: {} },
          })),
        });
      },
      setDocumentKnowledgeScope: (_id, next) => {
        changes.push(next);
        scope = next;
        return Promise.resolve(documentView(next));
      },
      listProjectDocuments: () => Promise.resolve([documentView(scope)]),
      listKnowledge: () =>
        Promise.resolve({ items: [], counts: { queued: 0, parsing: 0, indexed: 0, failed: 0 } }),
    });
    const services = testServices(api);
    render(
      <QueryClientProvider client={services.queryClient}>
        <ServicesProvider services={services}>
          <DocumentTab />
        </ServicesProvider>
      </QueryClientProvider>,
    );
    act(() => useDocumentViewer.getState().open('d1'));
    const viewer = await screen.findByTestId('document-viewer');
    expect(viewer.querySelectorAll('.document-block')).toHaveLength(BLOCKS);
    expect(viewer.textContent).toContain(`Entry ${BLOCKS - 1}`);
    const box = screen.getByTestId('viewer-scope') as HTMLInputElement;
    expect(box.checked).toBe(true);
    fireEvent.click(box);
    await waitFor(() => expect((screen.getByTestId('viewer-scope') as HTMLInputElement).checked).toBe(false));
    expect(changes).toEqual(['project']);
  });
});
