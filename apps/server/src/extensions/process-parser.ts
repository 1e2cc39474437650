import { spawn } from 'node:child_process';
import { isSea } from 'node:sea';
import {
  DocumentBlockSchema,
  extensionParserId,
  extensionSource,
  ParseFailureReasonSchema,
  type DocumentBlock,
  type ExtensionParser,
  type ParseContext,
  type ParserInput,
  type ParserProvider,
  type ParserRef,
  type ParseResult,
} from '@youyou/contracts';
import { z } from 'zod';
import { failure, finishDocument } from '../documents/index.ts';

/** What a parser script writes on stdout when it read the file. */
const ParsedSchema = z
  .object({
    blocks: z.array(DocumentBlockSchema).optional(),
    text: z.string().optional(),
    metadata: z
      .object({ title: z.string().nullable().optional(), author: z.string().nullable().optional() })
      .optional(),
    confidence: z.number().min(0).max(1).optional(),
    warnings: z.array(z.string().max(1000)).max(100).optional(),
  })
  .refine((value) => value.blocks !== undefined || value.text !== undefined, 'blocks or text');

/** What it writes when it read the file and could not parse it. */
const RefusedSchema = z.object({
  error: z.object({ reason: ParseFailureReasonSchema, message: z.string().max(2000) }),
});

/** Stderr kept for the failure message. */
const STDERR_LIMIT = 4 * 1024;

interface ScriptRun {
  outcome: 'exited' | 'timed_out' | 'too_much_output' | 'cancelled' | 'failed_to_start';
  code: number | null;
  stdout: string;
  stderr: string;
  startError?: string;
}

/**
 * Runs the script with the file's JSON on stdin: its own process (the server's Node, or `node`
 * from PATH in the single-file build, whose executable is the server itself), working directory
 * the extension's folder, an environment of PATH only (no server secrets), killed at the time cap,
 * at the output cap and on abort.
 */
function runParserScript(
  parser: ExtensionParser & { scriptPath: string },
  directory: string,
  input: ParserInput,
  signal: AbortSignal,
): Promise<ScriptRun> {
  const executable = isSea() ? 'node' : process.execPath;
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(executable, [parser.scriptPath], {
        cwd: directory,
        env: { PATH: process.env['PATH'] ?? '', YOUYOU_EXTENSION_DIR: directory },
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
        shell: false,
      });
    } catch (error) {
      resolve({
        outcome: 'failed_to_start',
        code: null,
        stdout: '',
        stderr: '',
        startError: error instanceof Error ? error.message : String(error),
      });
      return;
    }
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let stopped: ScriptRun['outcome'] | undefined;
    let startError: string | undefined;
    const stop = (outcome: ScriptRun['outcome']): void => {
      if (stopped !== undefined) return;
      stopped = outcome;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop('timed_out'), parser.timeout_ms);
    const onAbort = (): void => stop('cancelled');
    signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.byteLength;
      if (stdoutBytes > parser.max_output_bytes) stop('too_much_output');
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_LIMIT)
        stderr += chunk.toString('utf8').slice(0, STDERR_LIMIT - stderr.length);
    });
    // A script that exits before reading its input closes the pipe: that is its answer, not ours.
    child.stdin.on('error', () => {});
    child.on('error', (error) => {
      startError = error.message;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve({
        outcome: stopped ?? (startError !== undefined && code === null ? 'failed_to_start' : 'exited'),
        code,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: stderr.trim(),
        ...(startError === undefined ? {} : { startError }),
      });
    });
    child.stdin.end(
      JSON.stringify({
        name: input.name,
        media_type: input.media_type,
        format: input.format,
        content_base64: Buffer.from(input.bytes).toString('base64'),
      }),
    );
  });
}

function textBlocks(text: string): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  let line = 1;
  for (const paragraph of text.split(/\r?\n\s*\r?\n/)) {
    const trimmed = paragraph.trim();
    if (trimmed !== '') blocks.push({ type: 'paragraph', text: trimmed, location: { line } });
    line += paragraph.split(/\r?\n/).length + 1;
  }
  return blocks;
}

/**
 * A parser an extension ships, as a ParserProvider (spec §4.11): each file is parsed by the
 * extension's script in a child process under its time and output caps; whatever goes wrong is
 * a "could not parse" result with the reason class (`timeout`, `too_large` for too much output,
 * `service_error` for a crash, a non-zero exit or an answer of the wrong shape, or the reason the
 * script gave itself).
 *
 * @example
 * registry.register(processParser('example', directory, loaded.parsers[0]));
 */
export function processParser(
  extensionId: string,
  directory: string,
  parser: ExtensionParser & { scriptPath: string },
): ParserProvider {
  const ref: ParserRef = {
    id: extensionParserId(extensionId, parser.id),
    version: parser.version,
    source: extensionSource(extensionId) as ParserRef['source'],
  };
  return {
    ...ref,
    source: extensionSource(extensionId) as ParserProvider['source'],
    formats: parser.formats,
    async parse(input: ParserInput, context: ParseContext): Promise<ParseResult> {
      const startedAt = Date.now();
      const run = await runParserScript(parser, directory, input, context.signal);
      const named = `The parser ${ref.id}`;
      switch (run.outcome) {
        case 'failed_to_start':
          return failure(
            ref,
            'service_error',
            `${named} could not start: ${run.startError ?? 'unknown error'}`,
          );
        case 'timed_out':
          return failure(ref, 'timeout', `${named} did not finish within ${parser.timeout_ms} ms.`, {
            limit_ms: parser.timeout_ms,
          });
        case 'too_much_output':
          return failure(
            ref,
            'too_large',
            `${named} wrote more than ${parser.max_output_bytes} bytes; its output is refused.`,
            { limit: parser.max_output_bytes },
          );
        case 'cancelled':
          return failure(ref, 'timeout', `${named} was stopped before it finished.`);
        case 'exited':
          break;
      }
      let body: unknown;
      try {
        body = JSON.parse(run.stdout);
      } catch {
        body = undefined;
      }
      const refused = RefusedSchema.safeParse(body);
      if (refused.success) return failure(ref, refused.data.error.reason, refused.data.error.message);
      if (run.code !== 0)
        return failure(
          ref,
          'service_error',
          `${named} exited with code ${String(run.code)}${run.stderr === '' ? '' : `: ${run.stderr.slice(0, 500)}`}`,
        );
      const parsed = ParsedSchema.safeParse(body);
      if (!parsed.success)
        return failure(
          ref,
          'service_error',
          `${named} answered with a shape the workbench does not know (${body === undefined ? 'not JSON' : (parsed.error.issues[0]?.message ?? 'invalid')}).`,
        );
      const result = parsed.data;
      return finishDocument({
        format: input.format,
        parser: ref,
        blocks: result.blocks ?? textBlocks(result.text ?? ''),
        facts: { title: result.metadata?.title ?? null, author: result.metadata?.author ?? null },
        startedAt,
        maxBlocks: context.limits.max_blocks,
        warnings: result.warnings ?? [],
        confidence: result.confidence ?? 0.9,
      });
    },
  };
}
