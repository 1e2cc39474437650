import type { DocumentBlock, ParserProvider, ParserRef } from '@youyou/contracts';
import { finishDocument, ParseFailedError, parseSafely } from '../document-builder.ts';
import { decodeText, looksBinary, type DecodedText } from '../text-decoding.ts';

const REF: ParserRef = { id: 'builtin-txt', version: '1.0.0', source: 'builtin' };

/** Decodes a text file or fails `wrong_type` for binary bytes; the warning names a guessed encoding. */
export function decodeTextFile(bytes: Uint8Array): { decoded: DecodedText; warnings: string[] } {
  if (looksBinary(bytes)) throw new ParseFailedError('wrong_type', 'The file holds binary data, not text.');
  const decoded = decodeText(bytes);
  const warnings = decoded.certain ? [] : [`The encoding was guessed as ${decoded.encoding}.`];
  return { decoded, warnings };
}

/**
 * Plain text: paragraphs split at blank lines, each with its first line number. UTF-8, UTF-16
 * with a BOM, GB18030/GBK and Windows-1252 are recognised (`decodeText`).
 */
export const textParser: ParserProvider = {
  ...REF,
  source: 'builtin',
  formats: ['txt'],
  parse: (input, context) =>
    parseSafely(REF, async () => {
      const startedAt = Date.now();
      const { decoded, warnings } = decodeTextFile(input.bytes);
      const blocks: DocumentBlock[] = [];
      const lines = decoded.text.split(/\r\n|\r|\n/);
      let paragraph: string[] = [];
      let start = 1;
      const flush = (): void => {
        if (paragraph.length > 0)
          blocks.push({ type: 'paragraph', text: paragraph.join('\n'), location: { line: start } });
        paragraph = [];
      };
      lines.forEach((line, index) => {
        if (line.trim() === '') {
          flush();
          return;
        }
        if (paragraph.length === 0) start = index + 1;
        paragraph.push(line.trimEnd());
      });
      flush();
      return finishDocument({
        format: 'txt',
        parser: REF,
        blocks,
        facts: {},
        startedAt,
        maxBlocks: context.limits.max_blocks,
        warnings,
        confidence: decoded.certain ? 1 : 0.9,
      });
    }),
};
