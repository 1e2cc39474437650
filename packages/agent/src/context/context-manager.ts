import type { Message } from '../provider/index.ts';
import { estimateMessageTokens } from './token-estimate.ts';

/**
 * The session's ordered message list with a running token estimate (spec §4.2). Appending is O(1):
 * the estimate of a message is taken once, never recomputed over the whole history.
 */
export class ContextManager {
  #messages: Message[] = [];
  #sizes: number[] = [];
  #estimate = 0;

  constructor(messages: readonly Message[] = []) {
    this.replace(messages);
  }

  /** The live list handed to providers; it only grows until the next compaction replaces it. */
  get messages(): readonly Message[] {
    return this.#messages;
  }

  get estimatedTokens(): number {
    return this.#estimate;
  }

  /** Per-message estimates, index-aligned with `messages`. */
  get sizes(): readonly number[] {
    return this.#sizes;
  }

  append(message: Message): void {
    const size = estimateMessageTokens(message);
    this.#messages.push(message);
    this.#sizes.push(size);
    this.#estimate += size;
  }

  /** Swaps in a new list (after compaction); providers holding the old list keep a stable view. */
  replace(messages: readonly Message[]): void {
    this.#messages = [...messages];
    this.#sizes = this.#messages.map(estimateMessageTokens);
    this.#estimate = this.#sizes.reduce((sum, size) => sum + size, 0);
  }
}
