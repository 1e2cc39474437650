import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  blocksToText,
  DEFAULT_PARSE_POLICY,
  documentFormatOf,
  isKnownEventType,
  DocumentParsePolicySchema,
  jsonSchemas,
  ParsedDocumentSchema,
  ParserSourceSchema,
  parseEvent,
  type ParsedDocument,
} from '../src/index.ts';

const parsed: ParsedDocument = {
  version: 1,
  format: 'docx',
  metadata: {
    title: '季度报告',
    author: 'Ada',
    pages: null,
    slides: null,
    sheets: null,
    word_count: 12,
    char_count: 60,
    language: 'zh',
  },
  blocks: [
    { type: 'heading', level: 1, text: '季度报告', location: {} },
    { type: 'paragraph', text: 'Revenue grew.', location: { page: 1 } },
    { type: 'list', ordered: true, items: [{ text: 'one' }, { text: 'two', depth: 1 }], location: {} },
    {
      type: 'table',
      header: ['Name', 'Qty'],
      rows: [['Bolt', '4']],
      total_rows: 3,
      location: { sheet: 'Stock' },
    },
    { type: 'paragraph', role: 'speaker_notes', text: 'Say hello', location: { slide: 2 } },
    { type: 'page_break', location: { page: 1 } },
    { type: 'code', language: 'ts', text: 'let a = 1;', location: {} },
    { type: 'image_ref', alt: 'chart', target: 'media/image1.png', location: {} },
  ],
  provenance: {
    parser: { id: 'builtin-docx', version: '1.0.0', source: 'builtin' },
    confidence: 1,
    warnings: [],
    duration_ms: 3,
    parsed_at: '2026-01-01T00:00:00.000Z',
    comparison: null,
  },
};

describe('documents contract', () => {
  it('finds the format from the name first, then the media type, and null for images', () => {
    expect(documentFormatOf('报告.DOCX', 'application/octet-stream')).toBe('docx');
    expect(documentFormatOf('notes', 'text/markdown; charset=utf-8')).toBe('md');
    expect(documentFormatOf('photo.png', 'image/png')).toBeNull();
  });

  it('renders blocks as plain text with headings, numbered lists, pipe tables and labelled notes', () => {
    expect(blocksToText(parsed.blocks)).toBe(
      [
        '# 季度报告',
        'Revenue grew.',
        '1. one\n  1. two',
        '| Name | Qty |\n| --- | --- |\n| Bolt | 4 |\n(2 more rows not shown)',
        '[Speaker notes] Say hello',
        '```ts\nlet a = 1;\n```',
        '[image: chart]',
      ].join('\n\n'),
    );
  });

  it('accepts builtin, user and extension sources and nothing else', () => {
    expect(ParserSourceSchema.safeParse('extension:acme.ocr').success).toBe(true);
    expect(ParserSourceSchema.safeParse('builtin').success).toBe(true);
    expect(ParserSourceSchema.safeParse('plugin').success).toBe(false);
  });

  it('keeps the default policy valid and refuses a service URL that is not http', () => {
    expect(DocumentParsePolicySchema.parse(DEFAULT_PARSE_POLICY)).toEqual(DEFAULT_PARSE_POLICY);
    const bad = { ...DEFAULT_PARSE_POLICY, service: { url: 'file:///etc/passwd', timeout_ms: 5000 } };
    expect(DocumentParsePolicySchema.safeParse(bad).success).toBe(false);
  });

  it('exports ParsedDocument as JSON Schema that validates a real document and rejects a bad block', () => {
    const validate = new Ajv2020({ strict: false }).compile(jsonSchemas()['ParsedDocument']!);
    expect(validate(ParsedDocumentSchema.parse(parsed))).toBe(true);
    expect(validate({ ...parsed, blocks: [{ type: 'heading', level: 9, text: 'x', location: {} }] })).toBe(
      false,
    );
  });

  it('knows document.status as an event type and checks its payload', () => {
    const envelope = {
      seq: 1,
      run_id: null,
      conversation_id: 'c1',
      ts: '2026-01-01T00:00:00.000Z',
      v: 1,
      type: 'document.status',
      payload: { document: { id: 'd1' } },
    };
    expect(isKnownEventType('document.status')).toBe(true);
    expect(() => parseEvent(envelope)).toThrow();
  });
});
