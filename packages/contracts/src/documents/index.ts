import { z } from 'zod';
import { IsoDateSchema } from '../runs/index.ts';

/**
 * Documents (spec §4.11 ingest): an upload or artifact parsed into `ParsedDocument`, the one
 * intermediate representation every consumer reads (the context assembler, the viewer, the
 * retrieval index) whatever parser made it.
 */

/**
 * The version of the `ParsedDocument` shape. Like the events (spec §5) it only grows: new block
 * types and fields may appear within a version, and a consumer skips a block type it does not know.
 *
 * @example
 * if (document.version > PARSED_DOCUMENT_VERSION) showUpgradeHint();
 */
export const PARSED_DOCUMENT_VERSION = 1;

/**
 * The formats documents are read as. The built-in parsers read all but `rtf`, which only a
 * parser an extension ships reads (the example extension's).
 */
export const DOCUMENT_FORMATS = ['md', 'txt', 'html', 'docx', 'pptx', 'xlsx', 'csv', 'pdf', 'rtf'] as const;
export const DocumentFormatSchema = z.enum(DOCUMENT_FORMATS);
export type DocumentFormat = z.infer<typeof DocumentFormatSchema>;

const EXTENSION_FORMATS: Readonly<Record<string, DocumentFormat>> = {
  md: 'md',
  markdown: 'md',
  txt: 'txt',
  text: 'txt',
  log: 'txt',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  docx: 'docx',
  pptx: 'pptx',
  xlsx: 'xlsx',
  csv: 'csv',
  pdf: 'pdf',
  rtf: 'rtf',
};

const MEDIA_TYPE_FORMATS: Readonly<Record<string, DocumentFormat>> = {
  'text/markdown': 'md',
  'text/x-markdown': 'md',
  'text/plain': 'txt',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/csv': 'csv',
  'application/pdf': 'pdf',
  'application/rtf': 'rtf',
  'text/rtf': 'rtf',
};

/**
 * The document format of a file from its name, else its media type; `null` when no parser reads
 * it (images, archives, unknown binaries). The name wins because browsers send
 * `application/octet-stream` for many office files.
 *
 * @example
 * documentFormatOf('报告.docx', 'application/octet-stream'); // 'docx'
 * documentFormatOf('photo.png', 'image/png'); // null
 */
export function documentFormatOf(name: string, mediaType: string): DocumentFormat | null {
  const dot = name.lastIndexOf('.');
  if (dot >= 0) {
    const byName = EXTENSION_FORMATS[name.slice(dot + 1).toLowerCase()];
    if (byName !== undefined) return byName;
  }
  return MEDIA_TYPE_FORMATS[mediaType.split(';')[0]?.trim().toLowerCase() ?? ''] ?? null;
}

/**
 * Where a block sits in its source, as far as the format knows: the page of a PDF (from 1), the
 * slide of a deck (from 1), the sheet of a workbook (its name), the first line of a text file
 * (from 1). Citations show it.
 *
 * @example
 * { page: 3 }
 */
export const BlockLocationSchema = z.object({
  page: z.number().int().positive().optional(),
  slide: z.number().int().positive().optional(),
  sheet: z.string().optional(),
  line: z.number().int().positive().optional(),
});
export type BlockLocation = z.infer<typeof BlockLocationSchema>;

/**
 * What a paragraph or list is in its source when it is not body text: a docx footnote or comment,
 * a slide's speaker notes, a caption, or a note the parser wrote itself (e.g. "rows 501–9000 of
 * sheet Data were cut").
 */
export const BlockRoleSchema = z.enum(['footnote', 'comment', 'speaker_notes', 'caption', 'parser_note']);
export type BlockRole = z.infer<typeof BlockRoleSchema>;

const blockBase = {
  location: BlockLocationSchema,
  /** 0–1 when cross-validation or the parser doubts this block; absent means the document's confidence. */
  confidence: z.number().min(0).max(1).optional(),
  /** What the parser noticed about this block (an unreadable cell, a merged region flattened …). */
  warnings: z.array(z.string()).optional(),
};

/**
 * One block of a parsed document. Consumers switch on `type` and skip types they do not know.
 * A block's address is its index in `ParsedDocument.blocks`.
 *
 * @example
 * { type: 'heading', level: 2, text: 'Results', location: { page: 4 } }
 * { type: 'table', header: ['Name', 'Qty'], rows: [['Bolt', '4']], location: { sheet: 'Stock' } }
 */
export const DocumentBlockSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('heading'),
    level: z.number().int().min(1).max(6),
    text: z.string(),
    ...blockBase,
  }),
  z.object({
    type: z.literal('paragraph'),
    text: z.string(),
    role: BlockRoleSchema.optional(),
    ...blockBase,
  }),
  z.object({
    type: z.literal('list'),
    ordered: z.boolean(),
    /** Each item's text; `depth` (from 0) for nested lists when the source says so. */
    items: z.array(z.object({ text: z.string(), depth: z.number().int().nonnegative().optional() })),
    role: BlockRoleSchema.optional(),
    ...blockBase,
  }),
  z.object({
    type: z.literal('table'),
    /** The header row; empty when the source has none. */
    header: z.array(z.string()),
    rows: z.array(z.array(z.string())),
    caption: z.string().optional(),
    /** Set when rows were cut by the row cap: how many the source had. */
    total_rows: z.number().int().nonnegative().optional(),
    ...blockBase,
  }),
  z.object({ type: z.literal('code'), language: z.string().nullable(), text: z.string(), ...blockBase }),
  z.object({
    type: z.literal('image_ref'),
    /** The alt text or description the source gives. */
    alt: z.string().nullable(),
    /** The image's name or target inside the source (`media/image1.png`), when known. */
    target: z.string().nullable(),
    ...blockBase,
  }),
  z.object({ type: z.literal('page_break'), ...blockBase }),
]);
export type DocumentBlock = z.infer<typeof DocumentBlockSchema>;
export type DocumentBlockType = DocumentBlock['type'];

/**
 * What the document says about itself, and counts the parser made. `language` is a BCP 47 guess
 * from the text (`en`, `zh`), `null` when unsure.
 */
export const DocumentMetadataSchema = z.object({
  title: z.string().nullable(),
  author: z.string().nullable(),
  pages: z.number().int().nonnegative().nullable(),
  slides: z.number().int().nonnegative().nullable(),
  /** The workbook's sheet names, in order; null for other formats. */
  sheets: z.array(z.string()).nullable(),
  /** Words, counting each CJK character as one. */
  word_count: z.number().int().nonnegative(),
  char_count: z.number().int().nonnegative(),
  language: z.string().nullable(),
});
export type DocumentMetadata = z.infer<typeof DocumentMetadataSchema>;

/**
 * Who registered a parser (spec §4.1 principle 4): `builtin`, `user`, or `extension:<id>`.
 *
 * @example
 * ParserSourceSchema.parse('extension:acme.legal'); // ok
 */
export const ParserSourceSchema = z.string().regex(/^(builtin|user|extension:[A-Za-z0-9._-]+)$/, {
  message: "a parser source is 'builtin', 'user' or 'extension:<id>'",
});
export type ParserSource = 'builtin' | 'user' | `extension:${string}`;

/** A parser as provenance names it. */
export const ParserRefSchema = z.object({
  id: z.string(),
  version: z.string(),
  source: ParserSourceSchema,
});
export type ParserRef = z.infer<typeof ParserRefSchema>;

/** One parser's result in numbers: what cross-validation compares and stores. */
export const ParseStatsSchema = z.object({
  parser: ParserRefSchema,
  ok: z.boolean(),
  /** The failure's reason when `ok` is false. */
  failure_reason: z.string().nullable(),
  blocks: z.number().int().nonnegative(),
  headings: z.number().int().nonnegative(),
  tables: z.number().int().nonnegative(),
  word_count: z.number().int().nonnegative(),
  char_count: z.number().int().nonnegative(),
  pages: z.number().int().nonnegative().nullable(),
  duration_ms: z.number().nonnegative(),
});
export type ParseStats = z.infer<typeof ParseStatsSchema>;

/**
 * Cross-validation (spec §4.11): two parsers read the same file; both results' numbers are kept,
 * with how much of their text agrees, and which one the document uses — recorded, never a silent
 * choice.
 */
export const ParseComparisonSchema = z.object({
  primary: ParseStatsSchema,
  secondary: ParseStatsSchema,
  /** 0–1: the share of word trigrams the two texts have in common (Jaccard); null if one failed. */
  text_agreement: z.number().min(0).max(1).nullable(),
  /** The parser whose IR the document keeps. */
  chosen: z.enum(['primary', 'secondary']),
  note: z.string(),
});
export type ParseComparison = z.infer<typeof ParseComparisonSchema>;

/** Where a `ParsedDocument` came from. */
export const DocumentProvenanceSchema = z.object({
  parser: ParserRefSchema,
  /** 0–1: how far the parser trusts its own result (1 for a text layer read as is). */
  confidence: z.number().min(0).max(1),
  /** Document-level warnings; block-level ones sit on the blocks. */
  warnings: z.array(z.string()),
  duration_ms: z.number().nonnegative(),
  parsed_at: IsoDateSchema,
  comparison: ParseComparisonSchema.nullable(),
});
export type DocumentProvenance = z.infer<typeof DocumentProvenanceSchema>;

/**
 * The intermediate representation (spec §4.11): blocks in reading order, metadata, provenance.
 *
 * @example
 * const text = document.blocks.filter((block) => block.type === 'paragraph').map((block) => block.text);
 */
export const ParsedDocumentSchema = z
  .object({
    version: z.number().int().positive(),
    format: DocumentFormatSchema,
    metadata: DocumentMetadataSchema,
    blocks: z.array(DocumentBlockSchema),
    provenance: DocumentProvenanceSchema,
  })
  .meta({ id: 'ParsedDocument' });
export type ParsedDocument = z.infer<typeof ParsedDocumentSchema>;

/**
 * Why a file could not be read:
 * - `no_text_layer`: a scanned or image-only PDF (OCR or the external service may read it);
 * - `encrypted`: password protected;
 * - `corrupt`: the bytes are not a valid file of the format;
 * - `too_large`: over the byte, expanded-size (zip bomb) or block cap;
 * - `wrong_type`: the bytes are another format than the name says;
 * - `empty`: parsed, but there is no text;
 * - `unsupported`: no parser for this format in the policy's chain;
 * - `timeout`: the parser ran past the time cap;
 * - `service_error`: the external parsing service failed or could not be reached.
 */
export const PARSE_FAILURE_REASONS = [
  'no_text_layer',
  'encrypted',
  'corrupt',
  'too_large',
  'wrong_type',
  'empty',
  'unsupported',
  'timeout',
  'service_error',
] as const;
export const ParseFailureReasonSchema = z.enum(PARSE_FAILURE_REASONS);
export type ParseFailureReason = z.infer<typeof ParseFailureReasonSchema>;

/**
 * A "could not parse" result (spec §4.11: failure is shown, never swallowed): the reason class,
 * a plain message, and the parser that gave up (null when none ran).
 *
 * @example
 * { reason: 'encrypted', message: 'The PDF is password protected.', parser: { id: 'builtin-pdf', … } }
 */
export const ParseFailureSchema = z
  .object({
    reason: ParseFailureReasonSchema,
    message: z.string(),
    parser: ParserRefSchema.nullable(),
    /** Numbers behind the reason (`{ limit, size }` for too_large …). */
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'ParseFailure' });
export type ParseFailure = z.infer<typeof ParseFailureSchema>;

/** What one parser returns. */
export type ParseResult = { ok: true; document: ParsedDocument } | { ok: false; failure: ParseFailure };

/** The caps a parse runs under (spec §4.11 "大文档分块解析预算"); the policy may lower them. */
export const ParseLimitsSchema = z.object({
  /** The file's bytes. */
  max_bytes: z.number().int().positive(),
  /** The sum of OOXML zip entries after decompression (decompression bombs). */
  max_expanded_bytes: z.number().int().positive(),
  /** Wall time of one parser. */
  max_ms: z.number().int().positive(),
  /** Rows kept per table (xlsx, csv); the rest is cut with a note. */
  max_table_rows: z.number().int().positive(),
  /** Blocks kept per document. */
  max_blocks: z.number().int().positive(),
});
export type ParseLimits = z.infer<typeof ParseLimitsSchema>;

/**
 * The defaults: 50 MB in, 200 MB expanded, 60 s, 500 rows per table, 20,000 blocks.
 *
 * @example
 * const limits = { ...DEFAULT_PARSE_LIMITS, max_table_rows: 100 };
 */
export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  max_bytes: 50 * 1024 * 1024,
  max_expanded_bytes: 200 * 1024 * 1024,
  max_ms: 60_000,
  max_table_rows: 500,
  max_blocks: 20_000,
};

/** The file a parser reads. */
export interface ParserInput {
  bytes: Uint8Array;
  name: string;
  media_type: string;
  format: DocumentFormat;
}

/** What a parser gets beside the file. */
export interface ParseContext {
  limits: ParseLimits;
  /** Aborted when the time cap passes or the document is deleted; a parser stops soon after. */
  signal: AbortSignal;
  /** Progress from 0 to 1 with an optional note ("page 3 of 40"); shown on the attachment. */
  progress(fraction: number, note?: string): void;
}

/**
 * A parser (spec §4.11 ParserProvider), registered with a source tag like tools are. It never
 * throws for a bad file: it returns `{ ok: false, failure }` with the reason class.
 *
 * @example
 * const txt: ParserProvider = {
 *   id: 'my-txt', version: '1.0.0', source: 'user', formats: ['txt'],
 *   async parse(input) { … return { ok: true, document }; },
 * };
 */
export interface ParserProvider {
  /** Unique in the registry: `builtin-pdf`, `http-service`, `acme.ocr`. */
  readonly id: string;
  readonly version: string;
  readonly source: ParserSource;
  readonly formats: readonly DocumentFormat[];
  parse(input: ParserInput, context: ParseContext): Promise<ParseResult>;
}

/** A registered parser as the API lists it. */
export const ParserInfoSchema = z
  .object({
    id: z.string(),
    version: z.string(),
    source: ParserSourceSchema,
    formats: z.array(DocumentFormatSchema),
    /** False for the external service until a URL is set. */
    available: z.boolean(),
  })
  .meta({ id: 'ParserInfo' });
export type ParserInfo = z.infer<typeof ParserInfoSchema>;

/**
 * How one format is parsed: the parser chain, tried in order until one succeeds (`builtin` names
 * the built-in parser of the format), and whether to cross-validate the first two.
 *
 * @example
 * { chain: ['builtin', 'http-service'], cross_validate: false }
 */
export const FormatParsePolicySchema = z.object({
  chain: z.array(z.string().min(1).max(128)).min(1).max(8),
  cross_validate: z.boolean(),
});
export type FormatParsePolicy = z.infer<typeof FormatParsePolicySchema>;

/** The external parsing service (spec §4.11 tier 2, the MinerU slot): off until a URL is set. */
export const ParseServiceSettingsSchema = z.object({
  url: z.url({ protocol: /^https?$/ }).nullable(),
  timeout_ms: z.number().int().min(1000).max(600_000),
});
export type ParseServiceSettings = z.infer<typeof ParseServiceSettingsSchema>;

/**
 * A project's parse policy (spec §4.11 "解析策略"), stored per project; a format without an entry
 * uses `{ chain: ['builtin'], cross_validate: false }`.
 *
 * @example
 * { formats: { pdf: { chain: ['builtin', 'http-service'], cross_validate: true } },
 *   service: { url: 'http://127.0.0.1:8010', timeout_ms: 120000 }, limits: { max_table_rows: 200 } }
 */
export const DocumentParsePolicySchema = z
  .object({
    formats: z.partialRecord(DocumentFormatSchema, FormatParsePolicySchema),
    service: ParseServiceSettingsSchema,
    /** Lower caps than the server's; a value above the server's cap is clamped to it. */
    limits: ParseLimitsSchema.partial(),
  })
  .meta({ id: 'DocumentParsePolicy' });
export type DocumentParsePolicy = z.infer<typeof DocumentParsePolicySchema>;

/**
 * The policy a project has until one is set: every format by its built-in parser, no service.
 *
 * @example
 * const policy = stored ?? DEFAULT_PARSE_POLICY;
 */
export const DEFAULT_PARSE_POLICY: DocumentParsePolicy = {
  formats: {},
  service: { url: null, timeout_ms: 120_000 },
  limits: {},
};

/** `PUT /api/projects/{id}/parse-policy`: the whole policy. */
export const DocumentParsePolicyUpdateSchema = DocumentParsePolicySchema.meta({
  id: 'DocumentParsePolicyUpdate',
});

/**
 * Where a document is: waiting, being parsed, parsed (its IR is readable), failed (see
 * `failure`), or `indexed` — parsed and in the retrieval index (set by the retrieval module).
 */
export const DOCUMENT_STATUSES = ['queued', 'parsing', 'parsed', 'failed', 'indexed'] as const;
export const DocumentStatusSchema = z.enum(DOCUMENT_STATUSES);
export type DocumentStatus = z.infer<typeof DocumentStatusSchema>;

/**
 * A document as lists show it (without its blocks; read those from
 * `GET /api/documents/{id}/blocks`).
 *
 * @example
 * const document: DocumentView = await (await fetch(`/api/documents/${id}`)).json();
 * if (document.status === 'failed') show(document.failure.reason);
 */
/**
 * Where an upload's text may be found (decision 0029): `project` — in its project's knowledge
 * (searched, offered by `@`, in the project's Documents tab), the default; `conversation` — only in
 * the conversation it was sent in (the model still reads it as an attachment).
 *
 * @example
 * KnowledgeScopeSchema.parse('conversation');
 */
export const KnowledgeScopeSchema = z.enum(['project', 'conversation']);
export type KnowledgeScope = z.infer<typeof KnowledgeScopeSchema>;

export const DocumentViewSchema = z
  .object({
    id: z.string(),
    project_id: z.string().nullable(),
    conversation_id: z.string().nullable(),
    /** The user message it was attached to, once sent. */
    message_id: z.string().nullable(),
    upload_id: z.string().nullable(),
    artifact_id: z.string().nullable(),
    name: z.string(),
    media_type: z.string(),
    format: DocumentFormatSchema.nullable(),
    size: z.number().int().nonnegative(),
    status: DocumentStatusSchema,
    /** 0–1 while parsing. */
    progress: z.number().min(0).max(1).nullable(),
    failure: ParseFailureSchema.nullable(),
    metadata: DocumentMetadataSchema.nullable(),
    provenance: DocumentProvenanceSchema.nullable(),
    block_count: z.number().int().nonnegative(),
    knowledge_scope: KnowledgeScopeSchema,
    created_at: IsoDateSchema,
    updated_at: IsoDateSchema,
  })
  .meta({ id: 'DocumentView' });

/**
 * `PATCH /api/documents/{id}`: what the user may change about a document — whether it joins its
 * project's knowledge.
 *
 * @example
 * DocumentUpdateSchema.parse({ knowledge_scope: 'conversation' });
 */
export const DocumentUpdateSchema = z
  .object({ knowledge_scope: KnowledgeScopeSchema })
  .strict()
  .meta({ id: 'DocumentUpdate' });
export type DocumentUpdate = z.infer<typeof DocumentUpdateSchema>;
export type DocumentView = z.infer<typeof DocumentViewSchema>;

/**
 * `GET /api/documents/{id}/blocks?from=&to=&page=`: a range of blocks, `from` inclusive, `to`
 * exclusive, each with its index (the block's address in citations).
 */
export const DocumentBlocksPageSchema = z
  .object({
    document_id: z.string(),
    total: z.number().int().nonnegative(),
    from: z.number().int().nonnegative(),
    to: z.number().int().nonnegative(),
    blocks: z.array(z.object({ index: z.number().int().nonnegative(), block: DocumentBlockSchema })),
  })
  .meta({ id: 'DocumentBlocksPage' });
export type DocumentBlocksPage = z.infer<typeof DocumentBlocksPageSchema>;

/**
 * `document.status`: a document of this conversation was queued, started, progressed, parsed or
 * failed. Carries the whole view, so a client replaces what it holds.
 */
export const DocumentStatusPayloadSchema = z.object({ document: DocumentViewSchema });
export type DocumentStatusPayload = z.infer<typeof DocumentStatusPayloadSchema>;

/**
 * The document event types, spread into the event registry (`events/registry.ts`). `run_id` is null.
 *
 * @example
 * DOCUMENT_EVENT_PAYLOAD_SCHEMAS['document.status'].parse(event.payload);
 */
export const DOCUMENT_EVENT_PAYLOAD_SCHEMAS = {
  'document.status': DocumentStatusPayloadSchema,
} as const;

/**
 * The plain text of blocks in reading order: headings as `#` lines, lists as `-`/`1.` items,
 * tables as pipe rows, speaker notes and footnotes labelled, page breaks as blank lines.
 *
 * @example
 * blocksToText([{ type: 'heading', level: 1, text: 'Title', location: {} }]); // '# Title'
 */
export function blocksToText(blocks: readonly DocumentBlock[]): string {
  const out: string[] = [];
  for (const block of blocks) {
    const text = blockToText(block);
    if (text !== '') out.push(text);
  }
  return out.join('\n\n');
}

const ROLE_LABELS: Record<BlockRole, string> = {
  footnote: 'Footnote',
  comment: 'Comment',
  speaker_notes: 'Speaker notes',
  caption: 'Caption',
  parser_note: 'Note',
};

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll(/\r?\n/g, ' ');
}

/**
 * One block as plain text (see `blocksToText`); empty for a page break and for a type this
 * version does not know.
 */
export function blockToText(block: DocumentBlock): string {
  switch (block.type) {
    case 'heading':
      return `${'#'.repeat(block.level)} ${block.text}`;
    case 'paragraph':
      return block.role === undefined ? block.text : `[${ROLE_LABELS[block.role]}] ${block.text}`;
    case 'list': {
      // Numbers count per nesting depth and restart under each parent item.
      const counters: number[] = [];
      const items = block.items.map((item) => {
        const depth = item.depth ?? 0;
        counters.length = depth + 1;
        counters[depth] = (counters[depth] ?? 0) + 1;
        return `${'  '.repeat(depth)}${block.ordered ? `${counters[depth]}.` : '-'} ${item.text}`;
      });
      return block.role === undefined
        ? items.join('\n')
        : `[${ROLE_LABELS[block.role]}]\n${items.join('\n')}`;
    }
    case 'table': {
      const lines: string[] = [];
      if (block.caption !== undefined) lines.push(block.caption);
      if (block.header.length > 0) {
        lines.push(`| ${block.header.map(cell).join(' | ')} |`);
        lines.push(`|${block.header.map(() => ' --- |').join('')}`);
      }
      for (const row of block.rows) lines.push(`| ${row.map(cell).join(' | ')} |`);
      if (block.total_rows !== undefined && block.total_rows > block.rows.length)
        lines.push(`(${block.total_rows - block.rows.length} more rows not shown)`);
      return lines.join('\n');
    }
    case 'code':
      return `\`\`\`${block.language ?? ''}\n${block.text}\n\`\`\``;
    case 'image_ref':
      return `[image${block.alt === null ? '' : `: ${block.alt}`}]`;
    case 'page_break':
      return '';
    default:
      return '';
  }
}

/** `GET /api/conversations/{id}/documents`, `GET /api/projects/{id}/documents`: newest first. */
export const DocumentListSchema = z
  .object({ documents: z.array(DocumentViewSchema) })
  .meta({ id: 'DocumentList' });
export type DocumentList = z.infer<typeof DocumentListSchema>;

/** `GET /api/parsers?project_id=`: the registered parsers and the external service slot. */
export const ParserListSchema = z.object({ parsers: z.array(ParserInfoSchema) }).meta({ id: 'ParserList' });
export type ParserList = z.infer<typeof ParserListSchema>;
