import {
  blockToText,
  DEFAULT_PARSE_LIMITS,
  type DocumentParsePolicy,
  type ParseComparison,
  type ParseContext,
  type ParsedDocument,
  type ParseLimits,
  type ParseResult,
  type ParserInput,
  type ParserProvider,
  type ParserRef,
  type ParseStats,
} from '@youyou/contracts';
import { failure } from './document-builder.ts';
import type { ParserRegistry } from './parser-registry.ts';

/**
 * The caps of one parse: the server's, lowered (never raised) by the project's policy.
 *
 * @example
 * effectiveLimits(DEFAULT_PARSE_LIMITS, { max_table_rows: 50 }).max_table_rows; // 50
 */
export function effectiveLimits(
  server: ParseLimits,
  policy: { [Key in keyof ParseLimits]?: number | undefined },
): ParseLimits {
  const out = { ...server };
  for (const key of Object.keys(server) as (keyof ParseLimits)[]) {
    const wanted = policy[key];
    if (wanted !== undefined) out[key] = Math.min(server[key], wanted);
  }
  return out;
}

function refOf(parser: ParserProvider): ParserRef {
  return { id: parser.id, version: parser.version, source: parser.source };
}

/** Runs one parser under the time cap; a throw or an overrun becomes a failure. */
async function runOne(
  parser: ParserProvider,
  input: ParserInput,
  limits: ParseLimits,
  signal: AbortSignal,
  progress: ParseContext['progress'],
): Promise<{ result: ParseResult; durationMs: number }> {
  const startedAt = performance.now();
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  signal.addEventListener('abort', abort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ParseResult>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(
        failure(
          refOf(parser),
          'timeout',
          `Parsing took longer than ${Math.round(limits.max_ms / 1000)} s and was stopped.`,
          {
            limit_ms: limits.max_ms,
          },
        ),
      );
    }, limits.max_ms);
  });
  try {
    const result = await Promise.race([
      parser
        .parse(input, { limits, signal: controller.signal, progress })
        .catch((error: unknown) =>
          failure(
            refOf(parser),
            'corrupt',
            `The parser failed: ${error instanceof Error ? error.message : String(error)}`,
          ),
        ),
      timeout,
    ]);
    return { result, durationMs: performance.now() - startedAt };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', abort);
  }
}

/** The numbers of one result, as a comparison stores them. */
export function statsOf(parser: ParserRef, result: ParseResult, durationMs: number): ParseStats {
  if (!result.ok) {
    return {
      parser,
      ok: false,
      failure_reason: result.failure.reason,
      blocks: 0,
      headings: 0,
      tables: 0,
      word_count: 0,
      char_count: 0,
      pages: null,
      duration_ms: Math.round(durationMs),
    };
  }
  const { document } = result;
  return {
    parser: document.provenance.parser,
    ok: true,
    failure_reason: null,
    blocks: document.blocks.length,
    headings: document.blocks.filter((block) => block.type === 'heading').length,
    tables: document.blocks.filter((block) => block.type === 'table').length,
    word_count: document.metadata.word_count,
    char_count: document.metadata.char_count,
    pages: document.metadata.pages,
    duration_ms: Math.round(durationMs),
  };
}

/** Lower-cased words, CJK characters one by one. */
function tokens(text: string): string[] {
  return (
    text.toLowerCase().match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+/gu) ?? []
  );
}

function trigrams(words: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let index = 0; index + 2 < words.length; index++)
    out.add(`${words[index]} ${words[index + 1]} ${words[index + 2]}`);
  if (words.length < 3 && words.length > 0) out.add(words.join(' '));
  return out;
}

/**
 * 0–1: the Jaccard similarity of the two documents' word trigrams.
 *
 * @example
 * textAgreement(a, a); // 1
 */
export function textAgreement(a: ParsedDocument, b: ParsedDocument): number {
  const left = trigrams(tokens(a.blocks.map(blockToText).join(' ')));
  const right = trigrams(tokens(b.blocks.map(blockToText).join(' ')));
  if (left.size === 0 && right.size === 0) return 1;
  let common = 0;
  for (const gram of left) if (right.has(gram)) common++;
  return common / (left.size + right.size - common);
}

/**
 * Marks the blocks of `chosen` whose words the other result mostly lacks: confidence 0.5 and a
 * warning naming the other parser (spec §4.11: "差异块标记低置信度").
 */
function markDisagreement(chosen: ParsedDocument, other: ParsedDocument): ParsedDocument {
  const known = new Set(tokens(other.blocks.map(blockToText).join(' ')));
  const otherName = other.provenance.parser.id;
  return {
    ...chosen,
    blocks: chosen.blocks.map((block) => {
      const words = tokens(blockToText(block));
      if (words.length < 3) return block;
      const found = words.filter((word) => known.has(word)).length / words.length;
      if (found >= 0.6) return block;
      return {
        ...block,
        confidence: 0.5,
        warnings: [
          ...(block.warnings ?? []),
          `${otherName} read ${Math.round(found * 100)}% of this block's words.`,
        ],
      };
    }),
  };
}

/** What a parse through a policy gives: the result, and the comparison when cross-validated. */
export interface PipelineResult {
  result: ParseResult;
  /** Parsers the chain named but could not use, and parsers that failed before one succeeded. */
  notes: string[];
}

/**
 * Parses one file through a project's policy: the format's chain is tried in order until a
 * parser succeeds (a failure of the first is kept when all fail, with the others' reasons in its
 * details). With `cross_validate`, the first two parsers both run and the comparison — both
 * results' numbers, their text agreement, which one was kept — is stored in the provenance.
 *
 * @example
 * const { result } = await parseWithPolicy({ registry, policy, input, serverLimits, signal, progress });
 */
export async function parseWithPolicy(options: {
  registry: ParserRegistry;
  policy: DocumentParsePolicy;
  input: ParserInput;
  serverLimits?: ParseLimits;
  signal: AbortSignal;
  progress: ParseContext['progress'];
}): Promise<PipelineResult> {
  const { registry, policy, input, signal, progress } = options;
  const limits = effectiveLimits(options.serverLimits ?? DEFAULT_PARSE_LIMITS, policy.limits);
  const notes: string[] = [];
  if (input.bytes.byteLength > limits.max_bytes) {
    return {
      result: failure(
        null,
        'too_large',
        `The file has ${input.bytes.byteLength} bytes; the limit is ${limits.max_bytes}.`,
        {
          limit: limits.max_bytes,
          size: input.bytes.byteLength,
        },
      ),
      notes,
    };
  }
  const { parsers, skipped } = registry.chain(input.format, policy);
  for (const name of skipped) notes.push(`Parser '${name}' is not available for ${input.format}.`);
  if (parsers.length === 0) {
    return {
      result: failure(null, 'unsupported', `No parser in this project's policy reads ${input.format} files.`),
      notes,
    };
  }
  const crossValidate = (policy.formats[input.format]?.cross_validate ?? false) && parsers.length >= 2;
  if (crossValidate) {
    const [primaryParser, secondaryParser] = parsers as [ParserProvider, ParserProvider];
    const [primary, secondary] = await Promise.all([
      runOne(primaryParser, input, limits, signal, progress),
      runOne(secondaryParser, input, limits, signal, () => {}),
    ]);
    const comparison: ParseComparison = {
      primary: statsOf(refOf(primaryParser), primary.result, primary.durationMs),
      secondary: statsOf(refOf(secondaryParser), secondary.result, secondary.durationMs),
      text_agreement:
        primary.result.ok && secondary.result.ok
          ? textAgreement(primary.result.document, secondary.result.document)
          : null,
      chosen: primary.result.ok || !secondary.result.ok ? 'primary' : 'secondary',
      note: '',
    };
    comparison.note =
      comparison.text_agreement === null
        ? `Only the ${comparison.chosen} parser read the file; nothing to compare.`
        : `The two parsers agree on ${Math.round(comparison.text_agreement * 100)}% of word trigrams; blocks the other parser lacks are marked low confidence.`;
    const kept = comparison.chosen === 'primary' ? primary.result : secondary.result;
    if (!kept.ok) return { result: kept, notes };
    const other = comparison.chosen === 'primary' ? secondary.result : primary.result;
    const document = other.ok ? markDisagreement(kept.document, other.document) : kept.document;
    return {
      result: { ok: true, document: { ...document, provenance: { ...document.provenance, comparison } } },
      notes,
    };
  }
  let firstFailure: ParseResult | undefined;
  const fallbacks: { parser: string; reason: string }[] = [];
  for (const parser of parsers) {
    const { result } = await runOne(parser, input, limits, signal, progress);
    if (result.ok) {
      if (fallbacks.length > 0) {
        const warnings = [
          ...result.document.provenance.warnings,
          ...fallbacks.map(
            (entry) => `${entry.parser} failed (${entry.reason}); ${parser.id} read the file instead.`,
          ),
        ];
        return {
          result: {
            ok: true,
            document: { ...result.document, provenance: { ...result.document.provenance, warnings } },
          },
          notes,
        };
      }
      return { result, notes };
    }
    fallbacks.push({ parser: parser.id, reason: result.failure.reason });
    firstFailure ??= result;
    if (signal.aborted) break;
  }
  const first = firstFailure as Extract<ParseResult, { ok: false }>;
  if (fallbacks.length > 1) {
    first.failure.details = { ...first.failure.details, tried: fallbacks };
  }
  return { result: first, notes };
}
