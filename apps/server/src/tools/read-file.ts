import { open, stat } from 'node:fs/promises';
import { AgentError, detectImageFormat, type ToolHandler, type ToolOutput } from '@youyou/agent';
import { errorOutput } from './tool-errors.ts';
import type { ScopeOf } from './tool-scope.ts';

const MAX_READ_BYTES = 2 * 1024 * 1024;
const DEFAULT_LINES = 2000;

function looksBinary(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 8192);
  return sample.includes(0);
}

/**
 * An image file as a tool output: a line saying what it is (all a model without vision reads) and
 * the image, which the agent sends to models that take images (decision 0046).
 */
function imageOutput(display: string, bytes: Buffer, size: number): ToolOutput | undefined {
  const mediaType = detectImageFormat(bytes);
  if (mediaType === undefined) return undefined;
  if (size > MAX_READ_BYTES) {
    throw new AgentError(
      'INVALID_INPUT',
      `'${display}' is an image of ${size} bytes; read_file shows images up to 2 MB.`,
      { details: { path: display, size } },
    );
  }
  return {
    content: `${display} — [image: ${mediaType}, ${size < 1024 ? `${size} B` : `${(size / 1024).toFixed(1)} kB`}]`,
    metadata: { path: display, media_type: mediaType, size },
    images: [{ type: 'image', mediaType, data: bytes.toString('base64'), path: display }],
  };
}

/**
 * `read_file`: a text file of the project (or an upload of the conversation), whole or a line
 * range, with line numbers so the model can cite and ask for more; a PNG, JPEG, GIF or WebP file
 * as an image.
 *
 * @example
 * builder.addTool(readFileTool(scopeOf));
 */
export function readFileTool(scopeOf: ScopeOf): ToolHandler {
  return {
    name: 'read_file',
    description:
      "Reads a text or image file from the project directory or from this conversation's uploads. Paths are relative to the project root. Returns numbered lines; use start_line/end_line for a range (default: the first 2000 lines).",
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Relative to the project root.' },
        start_line: { type: 'integer', minimum: 1, description: '1-based.' },
        end_line: { type: 'integer', minimum: 1, description: 'Inclusive.' },
      },
      required: ['path'],
      additionalProperties: false,
    },
    mutating: false,
    async execute({ arguments: input }, context) {
      try {
        const scope = await scopeOf(context);
        const target = String(input.path);
        const real = await scope.resolve(target);
        const info = await stat(real);
        if (info.isDirectory()) {
          throw new AgentError(
            'INVALID_INPUT',
            `'${target}' is a directory; use list_files to see what is in it.`,
          );
        }
        const handle = await open(real, 'r');
        let bytes: Buffer;
        try {
          const length = Math.min(info.size, MAX_READ_BYTES);
          bytes = Buffer.alloc(length);
          await handle.read(bytes, 0, length, 0);
        } finally {
          await handle.close();
        }
        const image = imageOutput(scope.display(real), bytes, info.size);
        if (image !== undefined) return image;
        if (looksBinary(bytes)) {
          throw new AgentError(
            'INVALID_INPUT',
            `'${target}' is a binary file (${info.size} bytes); read_file reads text files.`,
            { details: { path: target, size: info.size } },
          );
        }
        const lines = bytes.toString('utf8').split(/\r?\n/);
        if (lines.at(-1) === '') lines.pop();
        const start = typeof input.start_line === 'number' ? input.start_line : 1;
        const end = Math.min(
          lines.length,
          typeof input.end_line === 'number' ? input.end_line : start + DEFAULT_LINES - 1,
        );
        if (start > Math.max(lines.length, 1)) {
          throw new AgentError(
            'INVALID_INPUT',
            `'${target}' has ${lines.length} lines; start_line ${start} is past the end.`,
          );
        }
        if (end < start) throw new AgentError('INVALID_INPUT', 'end_line is before start_line.');
        const width = String(end).length;
        const body = lines
          .slice(start - 1, end)
          .map((line, index) => `${String(start + index).padStart(width)}  ${line}`)
          .join('\n');
        const truncated =
          info.size > MAX_READ_BYTES
            ? ` (the file is ${info.size} bytes; only the first 2 MB were read)`
            : '';
        const more = end < lines.length ? `; ${lines.length - end} more lines after line ${end}` : '';
        return {
          content: `${scope.display(real)} — lines ${start}–${end} of ${lines.length}${more}${truncated}\n${body}`,
          metadata: {
            path: scope.display(real),
            start_line: start,
            end_line: end,
            total_lines: lines.length,
          },
        };
      } catch (error) {
        return errorOutput(error);
      }
    },
  };
}
