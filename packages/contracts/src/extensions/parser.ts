import { z } from 'zod';
import { DocumentFormatSchema } from '../documents/index.ts';
import { SemverSchema } from './api-version.ts';
import { AssetPathSchema } from './manifest.ts';

/** The caps an extension's parser runs under: the defaults, and the most it may ask for. */
export const EXTENSION_PARSER_LIMITS = {
  default_timeout_ms: 10_000,
  max_timeout_ms: 120_000,
  default_output_bytes: 4 * 1024 * 1024,
  max_output_bytes: 32 * 1024 * 1024,
} as const;

/**
 * A document parser an extension ships (spec §4.11 ParserProvider, §4.6 `provides.parsers`): a
 * Node script inside the extension, run as a child process per file, never inside the server.
 * It reads one JSON object on stdin — `{ name, media_type, format, content_base64 }`, the
 * external parsing service's request — and writes one JSON object on stdout: `{ blocks }` (IR
 * blocks) or `{ text }` (plain text, paragraphs at blank lines), with optional `metadata`
 * (`title`, `author`), `confidence`, `warnings`; or
 * `{ error: { reason, message } }` with a parse-failure reason. It is registered as
 * `extension:<extension id>/<id>` with the source `extension:<extension id>`; a project's parse
 * policy names it in a format's chain. Anything else — no answer within `timeout_ms`, more than
 * `max_output_bytes` on stdout, a non-zero exit, output that is not that shape — is a
 * "could not parse" result, never a crash.
 *
 * @example
 * { "id": "rtf", "version": "1.0.0", "formats": ["rtf"], "script": "parsers/rtf.mjs", "timeout_ms": 5000 }
 */
export const ExtensionParserSchema = z
  .object({
    $schema: z.string().optional(),
    id: z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/),
    version: SemverSchema,
    description: z.string().max(500).optional(),
    formats: z.array(DocumentFormatSchema).min(1),
    /** The script (`.js`, `.mjs` or `.cjs`), run with the server's own Node. */
    script: AssetPathSchema.regex(/\.(m|c)?js$/, 'a .js, .mjs or .cjs file'),
    timeout_ms: z
      .number()
      .int()
      .min(100)
      .max(EXTENSION_PARSER_LIMITS.max_timeout_ms)
      .default(EXTENSION_PARSER_LIMITS.default_timeout_ms),
    max_output_bytes: z
      .number()
      .int()
      .min(1024)
      .max(EXTENSION_PARSER_LIMITS.max_output_bytes)
      .default(EXTENSION_PARSER_LIMITS.default_output_bytes),
  })
  .strict();
export type ExtensionParser = z.infer<typeof ExtensionParserSchema>;

/**
 * The id a policy names an extension's parser by.
 *
 * @example
 * extensionParserId('example', 'rtf'); // 'extension:example/rtf'
 */
export function extensionParserId(extensionId: string, parserId: string): string {
  return `extension:${extensionId}/${parserId}`;
}
