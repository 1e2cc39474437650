import { open } from 'node:fs/promises';
import type { SessionRecord } from '../session/index.ts';

/**
 * File name of a session: its id with every character outside `[a-z0-9_-]` written as `%XX`
 * (UTF-8 bytes, upper-case hex), then `.jsonl`. Any id maps to one safe name: no separators, no
 * `..`, and ids that differ only in case stay apart on case-insensitive file systems.
 *
 * @example
 * sessionFileName('2f1c-Ab'); // '2f1c-%41b.jsonl'
 */
export function sessionFileName(sessionId: string): string {
  let name = '';
  for (const byte of Buffer.from(sessionId, 'utf8')) {
    const character = String.fromCharCode(byte);
    name += /[a-z0-9_-]/.test(character) ? character : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return `${name}.jsonl`;
}

/** The session id of a file name made by `sessionFileName`, or `undefined` for other files. */
export function sessionIdOfFileName(fileName: string): string | undefined {
  if (!fileName.endsWith('.jsonl') || fileName.startsWith('.')) return undefined;
  const encoded = fileName.slice(0, -'.jsonl'.length);
  if (!/^([a-z0-9_-]|%[0-9A-F]{2})+$/.test(encoded)) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

/** Records parsed from JSONL text, and what was left out. */
export interface ParsedLines {
  records: SessionRecord[];
  /** Bytes of `text` up to and including the last newline: the complete lines. */
  completeBytes: number;
  /** A last line without its newline: a write cut short by a crash. Ignored. */
  tornTail: boolean;
  /** 1-based numbers of complete lines that were not JSON records. Skipped. */
  corruptLines: number[];
}

/**
 * Parses JSONL: one record per complete line. A last line without a newline is a torn write and
 * is ignored; nothing before it is lost.
 *
 * @example
 * parseJsonLines('{"type":"metadata",…}\n{"type":"user_m').records.length; // 1
 */
export function parseJsonLines(text: string, firstLineNumber = 1): ParsedLines {
  const lastNewline = text.lastIndexOf('\n');
  const complete = lastNewline === -1 ? '' : text.slice(0, lastNewline);
  const records: SessionRecord[] = [];
  const corruptLines: number[] = [];
  if (complete !== '') {
    complete.split('\n').forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        const value: unknown = JSON.parse(line);
        if (
          value !== null &&
          typeof value === 'object' &&
          typeof (value as { type?: unknown }).type === 'string'
        ) {
          records.push(value as SessionRecord);
          return;
        }
      } catch {
        // Falls through to the corrupt-line report.
      }
      corruptLines.push(firstLineNumber + index);
    });
  }
  return {
    records,
    completeBytes: lastNewline === -1 ? 0 : Buffer.byteLength(text.slice(0, lastNewline + 1)),
    tornTail: lastNewline !== text.length - 1 && text.length > 0,
    corruptLines,
  };
}

/**
 * Cuts a torn last line off a JSONL file (a crash mid-append), so the next append starts on a
 * line of its own. Returns the number of bytes removed.
 *
 * @example
 * const removed = await repairTornTail('/home/me/.youyou/sessions/abc.jsonl');
 */
export async function repairTornTail(path: string): Promise<number> {
  let handle;
  try {
    handle = await open(path, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return 0;
    const chunkSize = 64 * 1024;
    let end = size;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] === 0x0a) return 0;
    while (end > 0) {
      const start = Math.max(0, end - chunkSize);
      const chunk = Buffer.alloc(end - start);
      await handle.read(chunk, 0, chunk.length, start);
      const newline = chunk.lastIndexOf(0x0a);
      if (newline !== -1) {
        const keep = start + newline + 1;
        await handle.truncate(keep);
        return size - keep;
      }
      end = start;
    }
    await handle.truncate(0);
    return size;
  } finally {
    await handle.close();
  }
}
