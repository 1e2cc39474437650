const PREFIX = 'error:';

/**
 * Finds `error: …` lines in a response body. Older llama.cpp servers report a failure inside a
 * stream that already answered 200 as a bare `error: {json}` line, which is not an SSE field, so
 * an SSE parser drops it and the message with it. The scanner sees the raw text beside the
 * parser, across chunk boundaries, and costs one `indexOf` per chunk when there is none.
 *
 * @example
 * const scanner = new ErrorLineScanner();
 * scanner.scan('error: {"error":{"message":"slot unavailable"}}\n\n', (data) => console.log(data));
 */
export class ErrorLineScanner {
  /** The start of a line that may be an error line, held until its end arrives. */
  #pending = '';
  #atLineStart = true;

  scan(text: string, onErrorLine: (data: string) => void): void {
    const buffer = this.#pending.length > 0 ? this.#pending + text : text;
    const atStart = this.#pending.length > 0 || this.#atLineStart;
    this.#pending = '';
    if (buffer.length === 0) return;
    let index = buffer.indexOf(PREFIX);
    while (index !== -1) {
      const lineStart = index === 0 ? atStart : buffer[index - 1] === '\n' || buffer[index - 1] === '\r';
      if (!lineStart) {
        index = buffer.indexOf(PREFIX, index + PREFIX.length);
        continue;
      }
      const end = buffer.indexOf('\n', index);
      if (end === -1) {
        this.#pending = buffer.slice(index);
        return;
      }
      onErrorLine(buffer.slice(index + PREFIX.length, end).trim());
      index = buffer.indexOf(PREFIX, end);
    }
    const lastNewline = buffer.lastIndexOf('\n');
    const tail = lastNewline === buffer.length - 1 ? '' : buffer.slice(lastNewline + 1);
    if (
      tail.length > 0 &&
      tail.length < PREFIX.length &&
      PREFIX.startsWith(tail) &&
      (lastNewline !== -1 || atStart)
    ) {
      this.#pending = tail;
    }
    this.#atLineStart =
      lastNewline === buffer.length - 1 || (lastNewline === -1 && atStart && tail.length === 0);
  }

  /** The body ended: an error line it ended on, without a newline, still counts. */
  flush(onErrorLine: (data: string) => void): void {
    const pending = this.#pending;
    this.#pending = '';
    if (pending.startsWith(PREFIX)) onErrorLine(pending.slice(PREFIX.length).trim());
  }
}
