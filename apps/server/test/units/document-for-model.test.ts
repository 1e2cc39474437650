import type { DocumentView, ParsedDocument } from '@youyou/contracts';
import { describe, expect, it } from 'vitest';
import { documentForModel } from '../../src/documents/index.ts';

const view = (changes: Partial<DocumentView> = {}): DocumentView => ({
  id: 'd1',
  project_id: null,
  conversation_id: 'c1',
  message_id: null,
  upload_id: 'u1',
  artifact_id: null,
  name: 'plan "v2".pdf',
  media_type: 'application/pdf',
  format: 'pdf',
  size: 10,
  status: 'parsed',
  progress: null,
  failure: null,
  metadata: null,
  provenance: null,
  block_count: 0,
  knowledge_scope: 'project',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...changes,
});

function parsed(pages: number, paragraphsPerPage: number): ParsedDocument {
  const blocks: ParsedDocument['blocks'] = [];
  for (let page = 1; page <= pages; page++) {
    blocks.push({ type: 'heading', level: 2, text: `Page ${page} heading`, location: { page } });
    for (let index = 0; index < paragraphsPerPage; index++)
      blocks.push({ type: 'paragraph', text: `Paragraph ${index} of page ${page}.`, location: { page } });
  }
  return {
    version: 1,
    format: 'pdf',
    metadata: {
      title: null,
      author: null,
      pages,
      slides: null,
      sheets: null,
      word_count: 100,
      char_count: 2000,
      language: 'en',
    },
    blocks,
    provenance: {
      parser: { id: 'builtin-pdf', version: '1', source: 'builtin' },
      confidence: 1,
      warnings: ['No text on page 9 (images only?).'],
      duration_ms: 1,
      parsed_at: '2026-01-01T00:00:00.000Z',
      comparison: null,
    },
  };
}

describe('what the model is told about an attached document', () => {
  it('gives the parsed text in a document tag with page markers, escaping the name', () => {
    const text = documentForModel(view(), parsed(2, 1));
    expect(text.split('\n')).toEqual([
      '<document id="d1" name="plan &quot;v2&quot;.pdf" format="pdf" pages="2">',
      '[page 1]',
      '## Page 1 heading',
      '',
      'Paragraph 0 of page 1.',
      '',
      '[page 2]',
      '## Page 2 heading',
      '',
      'Paragraph 0 of page 2.',
      '[Parser notes: No text on page 9 (images only?).]',
      '</document>',
    ]);
  });

  it('over the budget, gives the first blocks and says to use read_document from the next block', () => {
    const text = documentForModel(view(), parsed(20, 10), { maxChars: 500 });
    expect(text.length).toBeLessThan(1200);
    expect(text).toContain('Paragraph 0 of page 1.');
    expect(text).not.toContain('page 20');
    expect(text).toMatch(
      /\[Excerpt: blocks 0–\d+ of 220 are shown \(2000 characters in all\)\. Use read_document with id "d1" and a block range \(from \d+\) or a page to read the rest\.\]/,
    );
  });

  it('says plainly why a file could not be read and what to do, without any of its content', () => {
    const text = documentForModel(
      view({
        status: 'failed',
        failure: { reason: 'no_text_layer', message: 'The PDF has no text layer.', parser: null },
      }),
      undefined,
    );
    expect(text).toContain(
      '<document id="d1" name="plan &quot;v2&quot;.pdf" status="failed" reason="no_text_layer">',
    );
    expect(text).toContain('could not be read: it has no text layer. The PDF has no text layer.');
    expect(text).toContain('Ask the user for a version with selectable text');
    expect(text).toContain('do not guess what it says');
  });

  it('says a document still being parsed is not available yet', () => {
    expect(documentForModel(view({ status: 'parsing' }), undefined)).toContain(
      'is still being parsed; its content is not available yet',
    );
  });
});
