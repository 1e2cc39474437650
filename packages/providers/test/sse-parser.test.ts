import { describe, expect, it } from 'vitest';
import { SseParser, readSseBatches } from '@youyou/providers';
import type { SseEvent } from '@youyou/providers';

function parseAll(...pieces: string[]): SseEvent[] {
  const parser = new SseParser();
  return pieces.flatMap((piece) => parser.push(piece));
}

async function parseBytes(chunks: Uint8Array[]): Promise<SseEvent[]> {
  async function* body(): AsyncGenerator<Uint8Array> {
    yield* chunks;
  }
  const events: SseEvent[] = [];
  for await (const batch of readSseBatches(body())) events.push(...batch);
  return events;
}

describe('SseParser', () => {
  it('dispatches an event at each blank line, named by its event field or "message"', () => {
    expect(parseAll('event: ping\ndata: {}\n\ndata: hello\n\n')).toEqual([
      { event: 'ping', data: '{}' },
      { event: 'message', data: 'hello' },
    ]);
  });

  it('accepts CRLF, LF and lone CR line endings, mixed', () => {
    expect(parseAll('data: a\r\n\r\ndata: b\n\ndata: c\r\rdata: d\r\n\n')).toEqual([
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
      { event: 'message', data: 'c' },
      { event: 'message', data: 'd' },
    ]);
  });

  it('joins multi-line data with line feeds', () => {
    expect(parseAll('data: first\ndata: second\ndata:\ndata: fourth\n\n')).toEqual([
      { event: 'message', data: 'first\nsecond\n\nfourth' },
    ]);
  });

  it('skips comment lines and unknown fields', () => {
    expect(parseAll(': keep-alive\n: OPENROUTER PROCESSING\nfoo: bar\ndata: x\n\n')).toEqual([
      { event: 'message', data: 'x' },
    ]);
  });

  it('strips exactly one space after the colon and treats a bare field name as an empty value', () => {
    expect(parseAll('data:  two spaces\n\ndata\n\n')).toEqual([
      { event: 'message', data: ' two spaces' },
      { event: 'message', data: '' },
    ]);
  });

  it('does not dispatch an event with no data, and resets the event name after it', () => {
    expect(parseAll('event: lonely\n\ndata: after\n\n')).toEqual([{ event: 'message', data: 'after' }]);
  });

  it('carries the last event id forward and reads retry', () => {
    expect(parseAll('id: 7\nretry: 1500\ndata: a\n\ndata: b\n\n')).toEqual([
      { event: 'message', data: 'a', id: '7', retry: 1500 },
      { event: 'message', data: 'b', id: '7', retry: 1500 },
    ]);
  });

  it('never dispatches an event cut off by the end of the stream', () => {
    expect(parseAll('data: complete\n\ndata: partial')).toEqual([{ event: 'message', data: 'complete' }]);
    expect(parseAll('data: no blank line yet\n')).toEqual([]);
  });

  it('ignores a byte order mark at the start', () => {
    expect(parseAll('\uFEFFdata: x\n\n')).toEqual([{ event: 'message', data: 'x' }]);
  });

  it('keeps a CRLF split across two pieces as one line ending', () => {
    expect(parseAll('data: a\r', '\n\r', '\n')).toEqual([{ event: 'message', data: 'a' }]);
  });

  it('gives the same events for a stream split in three at every pair of offsets, mixing CR and LF-only pieces', () => {
    const stream = 'data: a\r\n\r\nevent: e\ndata: b\n\n\n\ndata: c\rdata: d\n\n: note\nid: 1\ndata: e\n\n';
    const whole = parseAll(stream);
    expect(whole.map((event) => event.data)).toEqual(['a', 'b', 'c\nd', 'e']);
    for (let first = 0; first <= stream.length; first += 1) {
      for (let second = first; second <= stream.length; second += 1) {
        expect(parseAll(stream.slice(0, first), stream.slice(first, second), stream.slice(second))).toEqual(
          whole,
        );
      }
    }
  });

  it('gives the same events for a stream split at every character offset', () => {
    const stream = 'event: a\r\ndata: x\r\n\r\n: comment\ndata: y\rdata: z\r\r\ndata: last\n\n';
    const whole = parseAll(stream);
    expect(whole).toHaveLength(3);
    for (let offset = 0; offset <= stream.length; offset += 1) {
      expect(parseAll(stream.slice(0, offset), stream.slice(offset))).toEqual(whole);
    }
  });
});

describe('readSseBatches', () => {
  const stream =
    'event: delta\r\ndata: {"text":"你好，世界 🎉"}\r\n\r\n: ping\n\ndata: naïve café\ndata: 二行目\n\n';
  const bytes = new TextEncoder().encode(stream);
  const expected: SseEvent[] = [
    { event: 'delta', data: '{"text":"你好，世界 🎉"}' },
    { event: 'message', data: 'naïve café\n二行目' },
  ];

  it('decodes a stream split into two chunks at every byte offset, multi-byte characters included', async () => {
    for (let offset = 0; offset <= bytes.length; offset += 1) {
      expect(await parseBytes([bytes.slice(0, offset), bytes.slice(offset)])).toEqual(expected);
    }
  });

  it('decodes a stream delivered one byte at a time', async () => {
    const chunks = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(await parseBytes(chunks)).toEqual(expected);
  });
});
