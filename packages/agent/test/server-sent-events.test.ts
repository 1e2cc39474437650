// The one SSE parser (eventsource-parser) of the codebase through both of its entries: the
// incremental ServerSentEventParser (the providers' model streams) and readServerSentEvents over a
// byte stream (@youyou/client's workbench event streams). Every case runs against both, so the edge
// cases are specified once.
import { ServerSentEventParser, readServerSentEvents, type ServerSentEvent } from '@youyou/agent/sse';
import { describe, expect, it } from 'vitest';

type Parsed = ServerSentEvent;

interface ParserPath {
  name: string;
  /** Parses text delivered in these pieces. */
  text(pieces: readonly string[]): Promise<{ events: Parsed[]; retry: number | undefined }>;
  /** Parses bytes delivered in these chunks. */
  bytes(chunks: readonly Uint8Array[]): Promise<Parsed[]>;
}

async function* chunksOf(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

const encoder = new TextEncoder();

const parserPath: ParserPath = {
  name: 'the incremental parser (text pieces)',
  text: (pieces) => {
    const parser = new ServerSentEventParser();
    const events = pieces.flatMap((piece) => parser.push(piece));
    return Promise.resolve({ events, retry: parser.retry });
  },
  bytes: (chunks) => {
    const decoder = new TextDecoder('utf-8');
    const parser = new ServerSentEventParser();
    const events = chunks.flatMap((chunk) => parser.push(decoder.decode(chunk, { stream: true })));
    return Promise.resolve([...events, ...parser.push(decoder.decode())]);
  },
};

async function readerEvents(
  chunks: readonly Uint8Array[],
  onRetry?: (milliseconds: number) => void,
): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const message of readServerSentEvents(
    chunksOf(chunks),
    onRetry === undefined ? {} : { onRetry },
  ))
    events.push(message);
  return events;
}

const readerPath: ParserPath = {
  name: 'readServerSentEvents (byte streams)',
  text: async (pieces) => {
    let retry: number | undefined;
    const events = await readerEvents(
      pieces.map((piece) => encoder.encode(piece)),
      (milliseconds) => {
        retry = milliseconds;
      },
    );
    return { events, retry };
  },
  bytes: (chunks) => readerEvents(chunks),
};

describe.each([parserPath, readerPath])('server-sent events through $name', (path) => {
  const parse = async (...pieces: string[]): Promise<Parsed[]> => (await path.text(pieces)).events;

  it('dispatches an event at each blank line, named by its event field or "message"', async () => {
    expect(await parse('event: ping\ndata: {}\n\ndata: hello\n\n')).toEqual([
      { event: 'ping', data: '{}' },
      { event: 'message', data: 'hello' },
    ]);
  });

  it('accepts CRLF, LF and lone CR line endings, mixed', async () => {
    expect(await parse('data: a\r\n\r\ndata: b\n\ndata: c\r\rdata: d\r\n\n')).toEqual([
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
      { event: 'message', data: 'c' },
      { event: 'message', data: 'd' },
    ]);
  });

  it('joins multi-line data with line feeds', async () => {
    expect(await parse('data: first\ndata: second\ndata:\ndata: fourth\n\n')).toEqual([
      { event: 'message', data: 'first\nsecond\n\nfourth' },
    ]);
  });

  it('skips comment lines (heartbeats) and unknown fields', async () => {
    expect(await parse(': keep-alive\n: OPENROUTER PROCESSING\nfoo: bar\ndata: x\n\n')).toEqual([
      { event: 'message', data: 'x' },
    ]);
  });

  it('strips exactly one space after the colon and treats a bare field name as an empty value', async () => {
    expect(await parse('data:  two spaces\n\ndata\n\n')).toEqual([
      { event: 'message', data: ' two spaces' },
      { event: 'message', data: '' },
    ]);
  });

  it('does not dispatch an event with no data, and resets the event name after it', async () => {
    expect(await parse('event: lonely\n\ndata: after\n\n')).toEqual([{ event: 'message', data: 'after' }]);
  });

  it('carries the last event id forward and reads retry', async () => {
    const parsed = await path.text(['id: 7\nretry: 1500\ndata: a\n\ndata: b\n\nid: 8\ndata: c\n\n']);
    expect(parsed.events).toEqual([
      { event: 'message', data: 'a', lastEventId: '7' },
      { event: 'message', data: 'b', lastEventId: '7' },
      { event: 'message', data: 'c', lastEventId: '8' },
    ]);
    expect(parsed.retry).toBe(1500);
  });

  it('never dispatches an event cut off by the end of the stream', async () => {
    expect(await parse('data: complete\n\ndata: partial')).toEqual([{ event: 'message', data: 'complete' }]);
    expect(await parse('data: no blank line yet\n')).toEqual([]);
  });

  it('ignores a byte order mark at the start', async () => {
    expect(await parse('\uFEFFdata: x\n\n')).toEqual([{ event: 'message', data: 'x' }]);
  });

  it('keeps a CRLF split across two pieces as one line ending', async () => {
    expect(await parse('data: a\r', '\n\r', '\n')).toEqual([{ event: 'message', data: 'a' }]);
  });

  it('gives the same events for a stream split at every character offset, CR and LF mixed', async () => {
    const stream = 'event: a\r\ndata: x\r\n\r\n: comment\ndata: y\rdata: z\r\r\nid: 3\ndata: last\n\n';
    const whole = await parse(stream);
    expect(whole).toHaveLength(3);
    for (let offset = 0; offset <= stream.length; offset += 1) {
      expect(await parse(stream.slice(0, offset), stream.slice(offset))).toEqual(whole);
    }
  });

  const stream =
    '\uFEFFevent: delta\r\ndata: {"text":"你好，世界 🎉"}\r\n\r\n: ping\n\nid: 9\ndata: naïve café\ndata: 二行目\n\n';
  const bytes = encoder.encode(stream);
  const expected: Parsed[] = [
    { event: 'delta', data: '{"text":"你好，世界 🎉"}' },
    { event: 'message', data: 'naïve café\n二行目', lastEventId: '9' },
  ];

  it('decodes a byte stream split at every byte offset, multi-byte characters and BOM included', async () => {
    for (let offset = 0; offset <= bytes.length; offset += 1) {
      expect(await path.bytes([bytes.slice(0, offset), bytes.slice(offset)])).toEqual(expected);
    }
  });

  it('decodes a byte stream delivered one byte at a time', async () => {
    expect(await path.bytes(Array.from(bytes, (byte) => Uint8Array.of(byte)))).toEqual(expected);
  });
});
