import {
  blockToText,
  PARSED_DOCUMENT_VERSION,
  type DocumentBlock,
  type DocumentFormat,
  type DocumentMetadata,
  type ParseFailure,
  type ParseFailureReason,
  type ParsedDocument,
  type ParseResult,
  type ParserRef,
} from '@youyou/contracts';

/**
 * Thrown inside a parser for a file it cannot read; `parseSafely` turns it into
 * `{ ok: false, failure }`, so parsers can bail out from deep inside a walk.
 *
 * @example
 * throw new ParseFailedError('encrypted', 'The PDF is password protected.');
 */
export class ParseFailedError extends Error {
  readonly reason: ParseFailureReason;
  readonly details: Record<string, unknown> | undefined;

  constructor(reason: ParseFailureReason, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ParseFailedError';
    this.reason = reason;
    this.details = details;
  }
}

/** A failure result for `parser`. */
export function failure(
  parser: ParserRef | null,
  reason: ParseFailureReason,
  message: string,
  details?: Record<string, unknown>,
): { ok: false; failure: ParseFailure } {
  return { ok: false, failure: { reason, message, parser, ...(details === undefined ? {} : { details }) } };
}

/**
 * Runs a parser body: a `ParseFailedError` becomes its failure, any other throw a `corrupt`
 * failure carrying the library's message (a parser never throws for a bad file).
 */
export async function parseSafely(parser: ParserRef, body: () => Promise<ParseResult>): Promise<ParseResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ParseFailedError) return failure(parser, error.reason, error.message, error.details);
    const message = error instanceof Error ? error.message : String(error);
    return failure(parser, 'corrupt', `The file could not be read: ${message.slice(0, 300)}`);
  }
}

/**
 * One unit of `wordCount`: a CJK character, or a run of other letters and digits. One pass with
 * no arrays: matching CJK and then words separately built a string per character and per word
 * (profiled on a 20 KB Word file, that was the parse's costliest function of ours).
 */
const CJK_CHAR = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const WORD_UNIT = new RegExp(`[${CJK_CHAR}]|(?:(?![${CJK_CHAR}])[\\p{L}\\p{N}])+`, 'gu');

/**
 * Words in text, counting each CJK character as one word (they are written without spaces).
 *
 * @example
 * wordCount('Hello world 你好'); // 4
 */
export function wordCount(text: string): number {
  let count = 0;
  WORD_UNIT.lastIndex = 0;
  while (WORD_UNIT.exec(text) !== null) count++;
  return count;
}

const ENGLISH_WORDS = new Set([
  'the',
  'and',
  'of',
  'to',
  'is',
  'in',
  'a',
  'for',
  'that',
  'with',
  'are',
  'this',
]);

/**
 * A BCP 47 guess at the text's main language: `zh`, `ja`, `ko` by script, `en` when common English
 * words are frequent, null otherwise.
 *
 * @example
 * guessLanguage('这是一份季度报告'); // 'zh'
 */
export function guessLanguage(text: string): string | null {
  const sample = text.slice(0, 20_000);
  const letters = sample.match(/\p{L}/gu)?.length ?? 0;
  if (letters === 0) return null;
  const kana = sample.match(/[\p{Script=Hiragana}\p{Script=Katakana}]/gu)?.length ?? 0;
  const hangul = sample.match(/\p{Script=Hangul}/gu)?.length ?? 0;
  const han = sample.match(/\p{Script=Han}/gu)?.length ?? 0;
  if (kana / letters > 0.1) return 'ja';
  if (hangul / letters > 0.2) return 'ko';
  if (han / letters > 0.2) return 'zh';
  const words = sample.toLowerCase().match(/[a-z]+/g) ?? [];
  if (words.length === 0) return null;
  const common = words.filter((word) => ENGLISH_WORDS.has(word)).length;
  return common / words.length > 0.05 ? 'en' : null;
}

/** What a parser knows of the document besides its blocks. */
export interface DocumentFacts {
  title?: string | null;
  author?: string | null;
  pages?: number | null;
  slides?: number | null;
  sheets?: string[] | null;
}

/**
 * Assembles a `ParsedDocument`: drops empty blocks, caps their number, counts words and
 * characters, guesses the language, takes the title from the first heading when the file names none.
 */
export function finishDocument(options: {
  format: DocumentFormat;
  parser: ParserRef;
  blocks: DocumentBlock[];
  facts: DocumentFacts;
  startedAt: number;
  maxBlocks: number;
  warnings?: string[];
  confidence?: number;
}): ParseResult {
  const warnings = [...(options.warnings ?? [])];
  let blocks = options.blocks.filter((block) => !isEmptyBlock(block));
  if (blocks.length > options.maxBlocks) {
    warnings.push(`The document has ${blocks.length} blocks; the first ${options.maxBlocks} are kept.`);
    blocks = blocks.slice(0, options.maxBlocks);
  }
  const text = blocks.map(blockToText).join('\n');
  const words = wordCount(text);
  if (words === 0) {
    return failure(options.parser, 'empty', 'The file was read, but it holds no text.');
  }
  const firstHeading = blocks.find((block) => block.type === 'heading');
  const metadata: DocumentMetadata = {
    title: cleanFact(options.facts.title) ?? (firstHeading?.type === 'heading' ? firstHeading.text : null),
    author: cleanFact(options.facts.author),
    pages: options.facts.pages ?? null,
    slides: options.facts.slides ?? null,
    sheets: options.facts.sheets ?? null,
    word_count: words,
    char_count: text.replace(/\s/g, '').length,
    language: guessLanguage(text),
  };
  const document: ParsedDocument = {
    version: PARSED_DOCUMENT_VERSION,
    format: options.format,
    metadata,
    blocks,
    provenance: {
      parser: options.parser,
      confidence: options.confidence ?? 1,
      warnings,
      duration_ms: Date.now() - options.startedAt,
      parsed_at: new Date().toISOString(),
      comparison: null,
    },
  };
  return { ok: true, document };
}

function cleanFact(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

function isEmptyBlock(block: DocumentBlock): boolean {
  switch (block.type) {
    case 'heading':
    case 'paragraph':
    case 'code':
      return block.text.trim() === '';
    case 'list':
      return block.items.every((item) => item.text.trim() === '');
    case 'table':
      return block.header.every((cell) => cell.trim() === '') && block.rows.length === 0;
    default:
      return false;
  }
}

/** Collapses runs of whitespace to one space and trims. */
export function squash(text: string): string {
  return text.replace(/[ \t\f\v\r\n\u00a0\u3000]+/g, ' ').trim();
}
