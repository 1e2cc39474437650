import { describe, expect, it } from 'vitest';
import {
  ChunkerOptionsSchema,
  RetrievalQuerySchema,
  SendMessageSchema,
  documentLink,
  parseDocumentLink,
} from '../src/index.ts';

describe('retrieval contract', () => {
  it('document links round-trip ids with reserved characters and the block', () => {
    const link = documentLink('doc #1/é', 12);
    expect(link).toBe('youyou-doc:doc%20%231%2F%C3%A9#block-12');
    expect(parseDocumentLink(link)).toEqual({ document_id: 'doc #1/é', block: 12 });
    expect(parseDocumentLink(documentLink('d1'))).toEqual({ document_id: 'd1', block: null });
  });

  it('anything but a youyou-doc link parses to null', () => {
    for (const href of ['javascript:alert(1)', 'https://example.com', 'youyou-doc:', 'youyou-doc:%E0%A4%A']) {
      expect(parseDocumentLink(href)).toBeNull();
    }
  });

  it('a query gets a top k and a mode by default and refuses an empty query', () => {
    expect(RetrievalQuerySchema.parse({ query: ' 营收 ' })).toEqual({
      query: '营收',
      top_k: 8,
      mode: 'auto',
    });
    expect(RetrievalQuerySchema.safeParse({ query: '   ' }).success).toBe(false);
    expect(RetrievalQuerySchema.safeParse({ query: 'x', top_k: 51 }).success).toBe(false);
  });

  it('chunker options default to a 1200-character target with 150 of overlap', () => {
    expect(ChunkerOptionsSchema.parse({})).toEqual({
      target_chars: 1200,
      overlap_chars: 150,
      max_chars: 4000,
    });
  });

  it('a sent message carries its @ references', () => {
    const parsed = SendMessageSchema.parse({
      text: 'see',
      references: [{ kind: 'artifact', id: 'a1', label: 'Plan.md' }],
    });
    expect(parsed.references).toEqual([{ kind: 'artifact', id: 'a1', label: 'Plan.md' }]);
    expect(SendMessageSchema.safeParse({ references: [{ kind: 'url', id: 'x', label: '' }] }).success).toBe(
      false,
    );
  });
});
