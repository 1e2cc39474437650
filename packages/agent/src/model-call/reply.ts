import type { ToolCallRequest } from '../provider/index.ts';

/** Pieces gathered before they are joined into one string (see `appendText`). */
const PIECES_PER_JOIN = 256;

/** The reply being streamed: filled in place, so every way out of a turn can keep what arrived. */
export class Reply {
  // Deltas gather in a short array that is joined every PIECES_PER_JOIN pieces: one array slot
  // per delta instead of one cons-string per delta, and no array as long as the stream (200,000
  // slots grew, were copied and reached old space, a GC cost the consumer paid on every delta).
  #pieces: string[] = [];
  #joined: string[] = [];
  reasoning = '';
  /** Set once the model streamed refusal text (kept in `text`, marked on its deltas). */
  refused = false;
  readonly calls: ToolCallRequest[] = [];

  appendText(text: string): void {
    const pieces = this.#pieces;
    pieces.push(text);
    if (pieces.length === PIECES_PER_JOIN) {
      this.#joined.push(pieces.join(''));
      this.#pieces = [];
    }
  }

  get text(): string {
    if (this.#pieces.length > 0) {
      this.#joined.push(this.#pieces.join(''));
      this.#pieces = [];
    }
    if (this.#joined.length > 1) this.#joined = [this.#joined.join('')];
    return this.#joined[0] ?? '';
  }

  /** Nothing arrived: no text, no reasoning, no calls. */
  get empty(): boolean {
    return (
      this.#pieces.length === 0 &&
      this.#joined.length === 0 &&
      this.reasoning === '' &&
      this.calls.length === 0
    );
  }
}
