import type { DocumentView, KnowledgeItem } from '@youyou/contracts';
import { describe, expect, it } from 'vitest';
import { projectDocumentRows } from '../src/knowledge/project-documents.ts';

function documentOf(id: string, changes: Partial<DocumentView> = {}): DocumentView {
  return {
    id,
    project_id: 'p1',
    conversation_id: 'c1',
    message_id: null,
    upload_id: `u-${id}`,
    artifact_id: null,
    name: `${id}.docx`,
    media_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    format: 'docx',
    size: 10,
    status: 'indexed',
    progress: null,
    failure: null,
    metadata: null,
    provenance: null,
    block_count: 3,
    knowledge_scope: 'project',
    created_at: '2026-12-04T00:00:00.000Z',
    updated_at: '2026-12-04T00:00:00.000Z',
    ...changes,
  };
}

function itemOf(id: string, changes: Partial<KnowledgeItem> = {}): KnowledgeItem {
  return {
    id,
    project_id: 'p1',
    source: 'upload',
    source_id: `u-${id}`,
    document_id: id,
    title: `${id}.docx`,
    media_type: 'text/plain',
    status: 'indexed',
    error: null,
    chunk_count: 1,
    embedded_count: 0,
    attempts: 1,
    source_version: 1,
    indexed_at: null,
    created_at: '2026-12-04T00:00:00.000Z',
    updated_at: '2026-12-04T00:00:00.000Z',
    ...changes,
  };
}

describe("the project's Documents rows", () => {
  it('an indexed upload takes its knowledge item status, with its conversation and project scope', () => {
    const [row] = projectDocumentRows([documentOf('d1')], [itemOf('d1')]);
    expect(row).toMatchObject({
      status: 'indexed',
      conversationId: 'c1',
      scope: 'project',
      documentId: 'd1',
    });
  });

  it('a parse failure shows its reason and retries the parse; an index failure retries the item', () => {
    const rows = projectDocumentRows(
      [
        documentOf('d1', {
          status: 'failed',
          failure: { reason: 'wrong_type', message: 'This is a PNG image.', parser: null },
        } as Partial<DocumentView>),
        documentOf('d2', { status: 'parsed' }),
      ],
      [itemOf('d2', { status: 'failed', error: { code: 'INTERNAL', message: 'disk full' } })],
    );
    expect(rows.map((row) => [row.status, row.reason, row.retry])).toEqual([
      ['failed', 'This is a PNG image.', { kind: 'document', id: 'd1' }],
      ['failed', 'disk full', { kind: 'knowledge', id: 'd2' }],
    ]);
  });

  it('a document kept to its conversation says so, and one parsed but not yet in the index waits', () => {
    const rows = projectDocumentRows(
      [documentOf('d1', { knowledge_scope: 'conversation' }), documentOf('d2', { status: 'parsed' })],
      [],
    );
    expect(rows.map((row) => row.status)).toEqual(['conversation', 'queued']);
  });

  it('artifacts of the knowledge come after the uploads, without a scope toggle', () => {
    const rows = projectDocumentRows(
      [documentOf('d1')],
      [
        itemOf('d1'),
        itemOf('a1', { source: 'artifact', source_id: 'art1', document_id: null, title: 'plan.md' }),
      ],
    );
    expect(rows.map((row) => [row.name, row.documentId])).toEqual([
      ['d1.docx', 'd1'],
      ['plan.md', undefined],
    ]);
  });
});
