import {
  blocksToText,
  DEFAULT_PARSE_POLICY,
  documentFormatOf,
  type DocumentBlock,
  type DocumentParsePolicy,
  type ParsedDocument,
  type ParserProvider,
  type ParseResult,
} from '@youyou/contracts';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUILTIN_PARSERS,
  ParserRegistry,
  parseWithPolicy,
  decodeText,
  wordCount,
} from '../../src/documents/index.ts';
import { documentFixtures, type Fixture } from '@youyou/testing/documents';
import { startFakeParseService, type FakeParseService } from '../support/fake-parse-service.ts';

let fixtures: Map<string, Fixture>;
let service: FakeParseService;
const registry = new ParserRegistry();

beforeAll(async () => {
  fixtures = await documentFixtures();
  service = await startFakeParseService();
}, 60_000);
afterAll(() => service.close());

async function parse(name: string, policy: Partial<DocumentParsePolicy> = {}): Promise<ParseResult> {
  const fixture = fixtures.get(name);
  if (fixture === undefined) throw new Error(`no fixture ${name}`);
  const format = documentFormatOf(fixture.name, fixture.media_type);
  if (format === null) throw new Error(`no format for ${name}`);
  const { result } = await parseWithPolicy({
    registry,
    policy: { ...DEFAULT_PARSE_POLICY, ...policy },
    input: { bytes: fixture.bytes, name: fixture.name, media_type: fixture.media_type, format },
    signal: new AbortController().signal,
    progress: () => {},
  });
  return result;
}

async function parsed(name: string, policy?: Partial<DocumentParsePolicy>): Promise<ParsedDocument> {
  const result = await parse(name, policy);
  if (!result.ok) throw new Error(`${name} failed: ${result.failure.reason} ${result.failure.message}`);
  return result.document;
}

async function failureOf(name: string, policy?: Partial<DocumentParsePolicy>): Promise<string> {
  const result = await parse(name, policy);
  if (result.ok) throw new Error(`${name} parsed, but should have failed`);
  return result.failure.reason;
}

function ofType<Type extends DocumentBlock['type']>(document: ParsedDocument, type: Type) {
  return document.blocks.filter(
    (block): block is Extract<DocumentBlock, { type: Type }> => block.type === type,
  );
}

describe('built-in parsers on files made by real producers', () => {
  it('reads a docx (docx npm): heading levels, paragraph, bullet and numbered lists, table cells, footnote, properties', async () => {
    const document = await parsed('report-en.docx');
    expect(ofType(document, 'heading').map((block) => [block.level, block.text])).toEqual([
      [1, 'Quarterly Report'],
      [2, 'Revenue'],
    ]);
    expect(blocksToText(document.blocks)).toContain('Revenue grew by twelve percent in the third quarter.');
    const [bullets, steps] = ofType(document, 'list');
    expect(bullets).toMatchObject({
      ordered: false,
      items: [{ text: 'Alpha launch' }, { text: 'Beta pilot' }],
    });
    expect(steps).toMatchObject({
      ordered: true,
      items: [{ text: 'Collect invoices' }, { text: 'Reconcile accounts' }],
    });
    expect(ofType(document, 'table')[0]).toMatchObject({
      header: ['Region', 'Sales'],
      rows: [
        ['North', '120'],
        ['South', '95'],
      ],
    });
    const footnote = document.blocks.find((block) => block.type === 'paragraph' && block.role === 'footnote');
    expect(footnote).toMatchObject({ text: expect.stringContaining('Source: the internal ledger.') });
    expect(document.metadata).toMatchObject({
      title: 'Quarterly Report',
      author: 'Ada Lovelace',
      language: 'en',
    });
    expect(document.provenance.parser).toEqual(
      expect.objectContaining({ id: 'builtin-docx', source: 'builtin' }),
    );
  });

  it('reads a Chinese docx with its table and footnote, counting each character as a word', async () => {
    const document = await parsed('report-zh.docx');
    expect(ofType(document, 'heading').map((block) => block.text)).toEqual(['季度报告', '收入']);
    expect(blocksToText(document.blocks)).toContain('第三季度收入增长了百分之十二。');
    expect(ofType(document, 'table')[0]?.rows).toContainEqual(['北方', '120']);
    expect(blocksToText(document.blocks)).toContain('来源：内部账簿。');
    expect(document.metadata.language).toBe('zh');
    expect(document.metadata.author).toBe('李华');
  });

  it('reads a pptx (pptxgenjs): slide titles as headings, bullets with levels, a table, speaker notes, per slide', async () => {
    const document = await parsed('roadmap.pptx');
    expect(ofType(document, 'heading').map((block) => [block.text, block.location.slide])).toEqual([
      ['Roadmap 2027', 1],
      ['Milestones', 2],
      ['路线图', 3],
    ]);
    expect(ofType(document, 'list')[0]?.items).toEqual([
      { text: 'Ship the parser' },
      { text: 'Index every upload' },
      { text: 'Measure recall', depth: 1 },
    ]);
    expect(ofType(document, 'table')[0]).toMatchObject({
      header: ['Quarter', 'Goal'],
      rows: [
        ['Q1', 'Parsers'],
        ['Q2', 'Retrieval'],
      ],
      location: { slide: 2 },
    });
    const notes = document.blocks.filter(
      (block) => block.type === 'paragraph' && block.role === 'speaker_notes',
    );
    expect(
      notes.map((block) => [block.type === 'paragraph' ? block.text : '', block.location.slide]),
    ).toEqual([
      ['Mention the budget for the parser team.', 1],
      ['记得提到预算。', 3],
    ]);
    expect(document.metadata).toMatchObject({ slides: 3, title: 'Roadmap 2027', author: 'Grace Hopper' });
  });

  it('reads an xlsx (exceljs): each sheet a table with header, Chinese sheet names, and cuts long sheets with a note', async () => {
    const document = await parsed('stock.xlsx');
    expect(document.metadata.sheets).toEqual(['Stock', '库存', 'Log']);
    const tables = ofType(document, 'table');
    expect(tables[0]).toMatchObject({
      header: ['Item', 'Qty', 'In stock'],
      rows: [
        ['Bolt', '4', 'TRUE'],
        ['Nut', '12', 'FALSE'],
      ],
      location: { sheet: 'Stock' },
    });
    expect(tables[1]).toMatchObject({
      header: ['物品', '数量'],
      rows: [['螺栓', '4']],
      location: { sheet: '库存' },
    });
    expect(tables[2]?.rows).toHaveLength(500);
    expect(tables[2]?.total_rows).toBe(700);
    const note = document.blocks.find((block) => block.type === 'paragraph' && block.role === 'parser_note');
    expect(note).toMatchObject({ text: expect.stringContaining('rows 501–700 (200 of 700 rows) were cut') });
  });

  it('applies a lower row cap from the policy', async () => {
    const document = await parsed('stock.xlsx', { limits: { max_table_rows: 10 } });
    expect(ofType(document, 'table')[2]?.rows).toHaveLength(10);
  });

  it('reads a PDF (pdf-lib): text per page top to bottom, larger type as headings, page breaks and page numbers', async () => {
    const document = await parsed('summary-en.pdf');
    expect(
      ofType(document, 'heading').map((block) => [block.level, block.text, block.location.page]),
    ).toEqual([
      [1, 'Annual Summary', 1],
      [2, 'Findings', 1],
      [2, 'Second page heading', 2],
    ]);
    expect(ofType(document, 'paragraph').map((block) => [block.text, block.location.page])).toEqual([
      ['The pipeline reads every page in order. It keeps the paragraphs together.', 1],
      ['Costs fell in the spring.', 1],
      ['The warehouse audit closed in June.', 2],
    ]);
    expect(ofType(document, 'page_break')).toHaveLength(1);
    expect(document.metadata).toMatchObject({ pages: 2, title: 'Annual Summary', author: 'Ada Lovelace' });
  });

  it('leaves the web DecompressionStream in place after PDFs, also after overlapping ones', async () => {
    const before = globalThis.DecompressionStream;
    const documents = await Promise.all([parsed('summary-en.pdf'), parsed('summary-zh.pdf')]);
    expect(documents.map((document) => document.metadata.pages)).toEqual([2, 1]);
    expect(globalThis.DecompressionStream).toBe(before);
    const inflated = new Blob([new Uint8Array(deflateSync('inflated'))])
      .stream()
      .pipeThrough(new DecompressionStream('deflate'));
    expect(await new Response(inflated).text()).toBe('inflated');
  });

  it('reads a Chinese PDF through its ToUnicode map', async () => {
    const document = await parsed('summary-zh.pdf');
    expect(ofType(document, 'heading')[0]?.text).toBe('年度总结');
    expect(blocksToText(document.blocks)).toContain('仓库审计已于六月完成。');
    expect(document.metadata.language).toBe('zh');
  });

  it('reads HTML without any script, style or noscript text, keeping headings, nested lists, table, code and images', async () => {
    const document = await parsed('guide.html');
    const text = blocksToText(document.blocks);
    expect(text).not.toMatch(/LEAK/);
    expect(document.metadata.title).toBe('Field Guide');
    expect(ofType(document, 'heading').map((block) => [block.level, block.text])).toEqual([
      [1, 'Field Guide'],
      [2, 'Gulls'],
    ]);
    expect(ofType(document, 'list')[0]?.items).toEqual([
      { text: 'Herring gull' },
      { text: 'Juvenile plumage', depth: 1 },
      { text: 'Kittiwake' },
    ]);
    expect(ofType(document, 'table')[0]).toMatchObject({
      header: ['Bird', 'Length'],
      rows: [['Puffin', '28 cm']],
    });
    expect(ofType(document, 'code')[0]).toMatchObject({ language: 'python', text: 'print("hello")' });
    expect(ofType(document, 'image_ref')[0]).toMatchObject({ alt: 'A gull in flight', target: 'gull.png' });
    expect(text).toContain('海鸥在海边飞翔。');
  });

  it('reads Markdown with GFM tables, code languages, nested lists and line numbers', async () => {
    const document = await parsed('manual.md');
    expect(
      ofType(document, 'heading').map((block) => [block.level, block.text, block.location.line]),
    ).toEqual([
      [1, 'Operations Manual', 1],
      [2, 'Steps', 5],
      [2, '注意事项', 19],
    ]);
    expect(ofType(document, 'list')[0]).toMatchObject({
      ordered: true,
      items: [{ text: 'Open the valve' }, { text: 'Check the gauge' }, { text: 'twice a day', depth: 1 }],
    });
    expect(ofType(document, 'table')[0]).toMatchObject({
      header: ['Part', 'Torque'],
      rows: [['Valve', '12 Nm']],
    });
    expect(ofType(document, 'code')[0]).toMatchObject({ language: 'bash', text: 'make deploy' });
  });

  it('decodes UTF-8, UTF-16 with a BOM and GBK text, and GB18030 CSV', async () => {
    expect(blocksToText((await parsed('notes-utf8.txt')).blocks)).toContain('café 咖啡');
    expect(blocksToText((await parsed('notes-utf16.txt')).blocks)).toBe('UTF-16 text: 你好，世界');
    const gbk = await parsed('notes-gbk.txt');
    expect(ofType(gbk, 'paragraph').map((block) => [block.text, block.location.line])).toEqual([
      ['这是一个用GBK编码的文件。', 1],
      ['第二段：数据解析。', 3],
    ]);
    expect(gbk.provenance.warnings).toContain('The encoding was guessed as gb18030.');
    expect(ofType(await parsed('people-gbk.csv'), 'table')[0]).toMatchObject({
      header: ['姓名', '城市'],
      rows: [
        ['李华', '北京'],
        ['王芳', '上海'],
      ],
    });
    expect(decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9])).text).toBe('café');
  });

  it('gives each broken file its reason class', async () => {
    expect(await failureOf('scan.pdf')).toBe('no_text_layer');
    expect(await failureOf('locked.pdf')).toBe('encrypted');
    expect(await failureOf('broken.pdf')).toBe('corrupt');
    expect(await failureOf('picture.pdf')).toBe('wrong_type');
    expect(await failureOf('slides-named.docx')).toBe('wrong_type');
    expect(await failureOf('truncated.docx')).toBe('corrupt');
    expect(await failureOf('blank.txt')).toBe('empty');
    expect(await failureOf('report-en.docx', { limits: { max_bytes: 1000 } })).toBe('too_large');
  });

  it('stops a decompression bomb at the expanded-size cap, counting bytes actually inflated', async () => {
    const result = await parse('bomb.docx', { limits: { max_expanded_bytes: 5 * 1024 * 1024 } });
    expect(result).toMatchObject({
      ok: false,
      failure: { reason: 'too_large', details: { limit: 5 * 1024 * 1024 } },
    });
  });
});

describe('parse policy: chains, the external service, cross-validation', () => {
  it('falls back from the built-in parser to the external service for a scan and says so', async () => {
    service.answer = (request) => ({
      status: 200,
      body: {
        parser: { name: 'fake-mineru', version: '0.1' },
        markdown: `# Recognised\n\nScanned ${request.name} text.`,
      },
    });
    const document = await parsed('scan.pdf', {
      formats: { pdf: { chain: ['builtin', 'http-service'], cross_validate: false } },
      service: { url: service.url, timeout_ms: 5000 },
    });
    expect(blocksToText(document.blocks)).toContain('Scanned scan.pdf text.');
    expect(document.provenance.parser).toMatchObject({ id: 'http-service', version: '1+fake-mineru.0.1' });
    expect(document.provenance.warnings).toContain(
      'builtin-pdf failed (no_text_layer); http-service read the file instead.',
    );
    expect(service.requests.at(-1)).toMatchObject({
      name: 'scan.pdf',
      format: 'pdf',
      media_type: 'application/pdf',
    });
  });

  it("keeps the service's own reason class from a 422, and reports a 500 or silence as service_error", async () => {
    const policy = {
      formats: { pdf: { chain: ['http-service'], cross_validate: false } },
      service: { url: service.url, timeout_ms: 1000 },
    };
    service.answer = () => ({
      status: 422,
      body: { error: { reason: 'encrypted', message: 'needs a password' } },
    });
    expect(await failureOf('summary-en.pdf', policy)).toBe('encrypted');
    service.answer = () => ({ status: 500, body: { oops: true } });
    expect(await failureOf('summary-en.pdf', policy)).toBe('service_error');
    service.answer = () => 'hang';
    expect(await failureOf('summary-en.pdf', policy)).toBe('service_error');
    service.answer = () => ({ status: 200, body: { blocks: [{ type: 'hologram' }] } });
    expect(await failureOf('summary-en.pdf', policy)).toBe('service_error');
  });

  it('accepts IR blocks from the service', async () => {
    service.answer = () => ({
      status: 200,
      body: {
        blocks: [{ type: 'heading', level: 1, text: 'From blocks', location: { page: 1 } }],
        confidence: 0.7,
      },
    });
    const document = await parsed('summary-en.pdf', {
      formats: { pdf: { chain: ['http-service'], cross_validate: false } },
      service: { url: service.url, timeout_ms: 5000 },
    });
    expect(document.blocks).toEqual([
      { type: 'heading', level: 1, text: 'From blocks', location: { page: 1 } },
    ]);
    expect(document.provenance.confidence).toBe(0.7);
  });

  it('cross-validates: both results are measured and stored, disagreeing blocks get low confidence', async () => {
    service.answer = () => ({
      status: 200,
      body: {
        markdown:
          '# Annual Summary\n\nThe pipeline reads every page in order. It keeps the paragraphs together.\n',
      },
    });
    const document = await parsed('summary-en.pdf', {
      formats: { pdf: { chain: ['builtin', 'http-service'], cross_validate: true } },
      service: { url: service.url, timeout_ms: 5000 },
    });
    const comparison = document.provenance.comparison;
    expect(comparison).toMatchObject({
      primary: { parser: { id: 'builtin-pdf' }, ok: true, headings: 3, pages: 2 },
      secondary: { parser: { id: 'http-service' }, ok: true, headings: 1 },
      chosen: 'primary',
    });
    expect(comparison?.text_agreement).toBeGreaterThan(0.2);
    expect(comparison?.text_agreement).toBeLessThan(1);
    const audit = document.blocks.find(
      (block) => block.type === 'paragraph' && block.text.includes('warehouse audit'),
    );
    expect(audit).toMatchObject({
      confidence: 0.5,
      warnings: [expect.stringMatching(/^http-service read \d+% of this block's words\.$/)],
    });
    const agreed = document.blocks.find(
      (block) => block.type === 'paragraph' && block.text.includes('pipeline'),
    );
    expect(agreed?.confidence).toBeUndefined();
  });

  it('lists parsers with their source tags, and removes an extension’s parsers by source', async () => {
    const local = new ParserRegistry();
    local.register({
      id: 'acme.legal',
      version: '2.0.0',
      source: 'extension:acme',
      formats: ['txt'],
      parse: async () => ({ ok: false, failure: { reason: 'empty', message: 'nothing', parser: null } }),
    });
    expect(local.list().find((parser) => parser.id === 'acme.legal')).toMatchObject({
      source: 'extension:acme',
    });
    expect(local.list().find((parser) => parser.id === 'http-service')).toMatchObject({ available: false });
    expect(() => local.register({ ...BUILTIN_TXT, id: 'acme.legal' })).toThrow(/already registered/);
    expect(local.unregisterSource('extension:acme')).toBe(1);
    expect(local.get('acme.legal')).toBeUndefined();
  });

  it('answers unsupported when the chain names no parser for the format', async () => {
    expect(
      await failureOf('manual.md', { formats: { md: { chain: ['acme.missing'], cross_validate: false } } }),
    ).toBe('unsupported');
  });
});

const BUILTIN_TXT = {
  id: 'x',
  version: '1',
  source: 'user' as const,
  formats: ['txt' as const],
  parse: async () => ({
    ok: false as const,
    failure: { reason: 'empty' as const, message: '', parser: null },
  }),
};

describe('built-in parsers load with their first file', () => {
  it('describe themselves as their modules do (id, version, formats)', async () => {
    const modules = [
      (await import('../../src/documents/parsers/markdown.ts')).markdownParser,
      (await import('../../src/documents/parsers/text.ts')).textParser,
      (await import('../../src/documents/parsers/html.ts')).htmlParser,
      (await import('../../src/documents/parsers/docx.ts')).docxParser,
      (await import('../../src/documents/parsers/pptx.ts')).pptxParser,
      (await import('../../src/documents/parsers/xlsx.ts')).xlsxParser,
      (await import('../../src/documents/parsers/csv.ts')).csvParser,
      (await import('../../src/documents/parsers/pdf.ts')).pdfParser,
    ];
    const summary = ({ id, version, source, formats }: ParserProvider) => ({ id, version, source, formats });
    expect(BUILTIN_PARSERS.map(summary)).toEqual(modules.map(summary));
  });
});

describe('word counts', () => {
  it('count each CJK character as a word and every other run of letters or digits as one', () => {
    expect(wordCount('Hello world 你好')).toBe(4);
    expect(wordCount('abc你def')).toBe(3);
    expect(wordCount('こんにちは 한국어 text')).toBe(9);
    expect(wordCount('café naïve 1,234.5 — ok.')).toBe(6);
    expect(wordCount('  \n\t ')).toBe(0);
  });
});
