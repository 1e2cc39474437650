import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** MCP's stdio framing limit, the SDK's own (its `ReadBuffer` throws past it). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** How much of an oversized line's start and end is kept to find its JSON-RPC id. */
const EDGE_BYTES = 512;

/** A message over the limit, dropped whole: its size and, when it could be read, its id. */
export interface OversizedMessage {
  bytes: number;
  id: string | number | undefined;
}

export interface MessageFramerHandlers {
  message: (message: JSONRPCMessage) => void;
  /** A line that is not JSON-RPC (a server printing to stdout). */
  invalid: (error: Error) => void;
  oversized: (message: OversizedMessage) => void;
}

/**
 * Newline-delimited JSON-RPC from a stdio MCP server, with a per-message size limit that drops
 * only the message over it. The SDK's `ReadBuffer` throws from `append` and forgets everything
 * buffered, so the next chunk starts mid-message and the error escapes the stream's listener (it
 * ended the whole workbench). Here an oversized line is skipped up to its newline, keeping the
 * stream in step, and its id is read from the line's edges so the call it answers can be failed.
 *
 * @example
 * const framer = new MessageFramer({ message, invalid, oversized });
 * child.stdout.on('data', (chunk) => framer.push(chunk));
 */
export class MessageFramer {
  readonly #handlers: MessageFramerHandlers;
  readonly #maxBytes: number;
  #parts: Buffer[] = [];
  #size = 0;
  /** While an oversized line is being skipped: its first and latest bytes. */
  #skipping: { head: Buffer; tail: Buffer } | undefined;

  constructor(handlers: MessageFramerHandlers, maxBytes = MAX_MESSAGE_BYTES) {
    this.#handlers = handlers;
    this.#maxBytes = maxBytes;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#take(chunk.subarray(start, end));
      if (newline === -1) return;
      this.#endLine();
      start = newline + 1;
    }
  }

  /** Forgets a partial line (the process ended mid-message). */
  clear(): void {
    this.#parts = [];
    this.#size = 0;
    this.#skipping = undefined;
  }

  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    this.#size += piece.length;
    if (this.#skipping !== undefined) {
      this.#skipping.tail = lastBytes(Buffer.concat([this.#skipping.tail, piece]));
      return;
    }
    this.#parts.push(piece);
    if (this.#size <= this.#maxBytes) return;
    const line = Buffer.concat(this.#parts);
    this.#parts = [];
    this.#skipping = { head: line.subarray(0, EDGE_BYTES), tail: lastBytes(line) };
  }

  #endLine(): void {
    const size = this.#size;
    const skipped = this.#skipping;
    const parts = this.#parts;
    this.clear();
    if (skipped !== undefined) {
      this.#handlers.oversized({ bytes: size, id: idOf(skipped.head, skipped.tail) });
      return;
    }
    const line = (parts.length === 1 ? parts[0]! : Buffer.concat(parts)).toString('utf8').replace(/\r$/, '');
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.#handlers.invalid(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.#handlers.message(message);
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= EDGE_BYTES ? buffer : Buffer.from(buffer.subarray(buffer.length - EDGE_BYTES));
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `…,"id":7}` at the very end: the SDK's servers write `{"result":…,"jsonrpc":"2.0","id":7}`. */
const ID_LAST = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);
/** `{"jsonrpc":"2.0","id":7,…` or `{"id":7,…` at the very start, as other writers order it. */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);

/** The top-level id of a JSON-RPC reply from a few hundred bytes at each end of it. */
function idOf(head: Buffer, tail: Buffer): string | number | undefined {
  const raw = ID_LAST.exec(tail.toString('utf8'))?.[1] ?? ID_FIRST.exec(head.toString('utf8'))?.[1];
  if (raw === undefined) return undefined;
  return raw.startsWith('"') ? (JSON.parse(raw) as string) : Number(raw);
}
