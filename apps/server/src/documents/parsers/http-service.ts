import {
  DocumentBlockSchema,
  ParseFailureReasonSchema,
  type DocumentFormat,
  type ParserProvider,
  type ParserRef,
  type ParseServiceSettings,
} from '@youyou/contracts';
import { z } from 'zod';
import { failure, finishDocument, parseSafely } from '../document-builder.ts';
import { markdownParser } from './markdown.ts';

/** The id policies name the external service by. */
export const HTTP_SERVICE_PARSER_ID = 'http-service';

const SERVICE_FORMATS: readonly DocumentFormat[] = [
  'pdf',
  'docx',
  'pptx',
  'xlsx',
  'html',
  'md',
  'txt',
  'csv',
];

/**
 * What the service answers with 200: either IR blocks, or Markdown (what MinerU produces), which
 * the built-in Markdown parser turns into blocks.
 */
const ServiceResultSchema = z.object({
  parser: z.object({ name: z.string().max(100), version: z.string().max(100) }).optional(),
  metadata: z
    .object({
      title: z.string().nullable().optional(),
      author: z.string().nullable().optional(),
      pages: z.number().int().nonnegative().nullable().optional(),
    })
    .optional(),
  blocks: z.array(DocumentBlockSchema).optional(),
  markdown: z.string().optional(),
  confidence: z.number().min(0).max(1).optional(),
  warnings: z.array(z.string()).optional(),
});

/** What the service answers with 422: it read the file and says why it could not parse it. */
const ServiceFailureSchema = z.object({
  error: z.object({ reason: ParseFailureReasonSchema, message: z.string() }),
});

/**
 * The adapter for an external parsing service (spec §4.11 tier 2, the MinerU slot), off until a
 * project's policy gives its URL. The contract (docs/decisions/0013):
 *
 * `POST {url}/parse` with JSON `{ name, media_type, format, content_base64 }` →
 * 200 `{ parser?: { name, version }, metadata?: { title, author, pages }, blocks?: Block[] | markdown?: string,
 * confidence?, warnings? }` or 422 `{ error: { reason, message } }` with a reason class; anything
 * else (or no answer within the timeout) is `service_error`.
 *
 * @example
 * const parser = httpServiceParser({ url: 'http://127.0.0.1:8010', timeout_ms: 120000 });
 */
export function httpServiceParser(settings: ParseServiceSettings & { url: string }): ParserProvider {
  const ref: ParserRef = { id: HTTP_SERVICE_PARSER_ID, version: '1', source: 'builtin' };
  return {
    ...ref,
    source: 'builtin',
    formats: SERVICE_FORMATS,
    parse: (input, context) =>
      parseSafely(ref, async () => {
        const startedAt = Date.now();
        const endpoint = new URL('parse', settings.url.endsWith('/') ? settings.url : `${settings.url}/`);
        let response: Response;
        try {
          response = await fetch(endpoint, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({
              name: input.name,
              media_type: input.media_type,
              format: input.format,
              content_base64: Buffer.from(input.bytes).toString('base64'),
            }),
            signal: AbortSignal.any([context.signal, AbortSignal.timeout(settings.timeout_ms)]),
            redirect: 'error',
          });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          return failure(
            ref,
            'service_error',
            `The parsing service at ${endpoint.origin} did not answer: ${message}`,
          );
        }
        const text = await response.text();
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          return failure(
            ref,
            'service_error',
            `The parsing service answered ${response.status} without JSON.`,
          );
        }
        if (response.status === 422) {
          const refused = ServiceFailureSchema.safeParse(body);
          if (refused.success) return failure(ref, refused.data.error.reason, refused.data.error.message);
        }
        if (!response.ok)
          return failure(ref, 'service_error', `The parsing service answered ${response.status}.`);
        const parsed = ServiceResultSchema.safeParse(body);
        if (!parsed.success || (parsed.data.blocks === undefined && parsed.data.markdown === undefined)) {
          return failure(
            ref,
            'service_error',
            'The parsing service answered with a shape this adapter does not know.',
          );
        }
        const result = parsed.data;
        const served: ParserRef = {
          ...ref,
          version:
            result.parser === undefined
              ? ref.version
              : `${ref.version}+${result.parser.name}.${result.parser.version}`,
        };
        let blocks = result.blocks ?? [];
        if (result.blocks === undefined) {
          const markdown = await markdownParser.parse(
            { ...input, bytes: new TextEncoder().encode(result.markdown ?? ''), format: 'md' },
            context,
          );
          if (!markdown.ok) return failure(served, markdown.failure.reason, markdown.failure.message);
          blocks = markdown.document.blocks;
        }
        return finishDocument({
          format: input.format,
          parser: served,
          blocks,
          facts: {
            title: result.metadata?.title ?? null,
            author: result.metadata?.author ?? null,
            pages: result.metadata?.pages ?? null,
          },
          startedAt,
          maxBlocks: context.limits.max_blocks,
          warnings: result.warnings ?? [],
          confidence: result.confidence ?? 0.9,
        });
      }),
  };
}
