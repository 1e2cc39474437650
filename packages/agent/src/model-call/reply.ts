import type { ToolCallRequest } from '../provider/index.ts';

/** The reply being streamed: filled in place, so every way out of a turn can keep what arrived. */
export class Reply {
  // Pieces, joined on read: one array slot per delta instead of one cons-string per delta.
  readonly #parts: string[] = [];
  reasoning = '';
  /** Set once the model streamed refusal text (kept in `text`, marked on its deltas). */
  refused = false;
  readonly calls: ToolCallRequest[] = [];

  appendText(text: string): void {
    this.#parts.push(text);
  }

  get text(): string {
    if (this.#parts.length > 1) this.#parts.splice(0, this.#parts.length, this.#parts.join(''));
    return this.#parts[0] ?? '';
  }

  /** Nothing arrived: no text, no reasoning, no calls. */
  get empty(): boolean {
    return this.#parts.length === 0 && this.reasoning === '' && this.calls.length === 0;
  }
}
