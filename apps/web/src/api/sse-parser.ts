/** One server-sent event: its `id`, `event` name and `data` lines joined. */
export interface ServerSentEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * Parses the text/event-stream format incrementally (WHATWG HTML §9.2): feed it decoded chunks,
 * it returns the events completed so far. Comments (heartbeats) and `retry:` lines are skipped.
 *
 * @example
 * const parser = new SseParser();
 * parser.push('id: 1\ndata: {"a":1}\n\n'); // [{ id: '1', event: 'message', data: '{"a":1}' }]
 */
export class SseParser {
  #buffer = '';
  #id: string | undefined;
  #event = '';
  #data: string[] = [];

  push(chunk: string): ServerSentEvent[] {
    this.#buffer += chunk;
    const events: ServerSentEvent[] = [];
    let start = 0;
    for (;;) {
      const newline = this.#buffer.indexOf('\n', start);
      if (newline === -1) break;
      let line = this.#buffer.slice(start, newline);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      start = newline + 1;
      if (line === '') {
        if (this.#data.length > 0) {
          events.push({
            id: this.#id,
            event: this.#event === '' ? 'message' : this.#event,
            data: this.#data.join('\n'),
          });
        }
        this.#event = '';
        this.#data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') this.#data.push(value);
      else if (field === 'event') this.#event = value;
      else if (field === 'id') this.#id = value;
    }
    this.#buffer = this.#buffer.slice(start);
    return events;
  }
}
