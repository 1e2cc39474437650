// Parser throughput: a 50 MB recorded stream through each provider's parser (SSE parsing, JSON,
// event mapping: everything a live call does after the socket) against a bare SSE line split of
// the same bytes (UTF-8 decode, split on newlines, pick the `data:` lines). Issue 4's target: the
// provider costs less than 2× the bare split.
//
//   npx tsx bench/parsers/parser-throughput.ts [--megabytes 50] [--chunk-kilobytes 16] [--runs 9]
//
// Prints a markdown table on stdout. The streams come from the fake servers' wire renderers, so
// they are the real formats: text in English, CJK and emoji, reasoning, fragmented tool calls, usage.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { decodeAnthropicStream, decodeOpenAIStream } from '@youyou/providers';
import { anthropicWire, openAIWire } from '@youyou/testing';
import type { FakeStep, RecordedRequest, WireFormat } from '@youyou/testing';

const { values } = parseArgs({
  options: {
    megabytes: { type: 'string', default: '50' },
    'chunk-kilobytes': { type: 'string', default: '16' },
    runs: { type: 'string', default: '9' },
  },
});
const targetBytes = Number(values.megabytes) * 1024 * 1024;
const chunkBytes = Number(values['chunk-kilobytes']) * 1024;
const runs = Number(values.runs);
/** Uncounted runs first, so both parsers are measured optimised rather than while the JIT warms up. */
const warmups = 5;

const PHRASES = [
  'The quick brown fox ',
  'jumps over ',
  '懒狗。',
  'naïve café ',
  '🎉 ',
  'const x = 1;\n',
  'and then ',
];

/**
 * The steps of one long reply, shaped like real model output: runs of reasoning, then long runs of
 * text, then a tool call whose arguments arrive in many fragments, over and over.
 */
function steps(count: number): FakeStep[] {
  const result: FakeStep[] = [];
  for (let index = 0; result.length < count; index += 1) {
    for (let step = 0; step < 150; step += 1)
      result.push({ type: 'reasoning', text: PHRASES[step % PHRASES.length] ?? '' });
    for (let step = 0; step < 1_500; step += 1)
      result.push({ type: 'text', text: PHRASES[step % PHRASES.length] ?? '' });
    result.push({
      type: 'tool_call',
      name: 'write_file',
      arguments: { path: `src/file-${index}.ts`, content: PHRASES.join('').repeat(20) },
      fragments: 60,
    });
  }
  result.push({ type: 'usage', inputTokens: 1_000, outputTokens: count });
  return result;
}

function render(wire: WireFormat, stepCount: number): Buffer {
  const request: RecordedRequest = {
    index: 0,
    method: 'POST',
    path: wire.chatPath,
    headers: {},
    body: { model: 'bench-model', messages: [], stream_options: { include_usage: true } },
    receivedAt: 0,
    closedEarly: false,
  };
  const frames = wire.renderStream({ type: 'stream', steps: steps(stepCount) }, request, 1);
  return Buffer.from(frames.map((frame) => (frame.kind === 'data' ? frame.text : '')).join(''), 'utf8');
}

/** One long reply in `wire`'s format, sized to the target. */
function record(wire: WireFormat): Uint8Array {
  const sampleSteps = 16_510;
  const sample = render(wire, sampleSteps);
  return render(wire, Math.ceil((sampleSteps * targetBytes) / sample.length));
}

/** The recording cut into network-sized chunks, as a socket would deliver it. */
function chunk(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += chunkBytes)
    chunks.push(bytes.subarray(start, start + chunkBytes));
  return chunks;
}

async function* replay(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

/** The floor: decode UTF-8, split lines, keep the `data:` ones. No JSON, no events. */
async function bareSplit(chunks: readonly Uint8Array[]): Promise<number> {
  const decoder = new TextDecoder();
  let carry = '';
  let dataLines = 0;
  for await (const piece of replay(chunks)) {
    const lines = (carry + decoder.decode(piece, { stream: true })).split('\n');
    carry = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('data:')) dataLines += 1;
  }
  return dataLines;
}

/** Everything a live call does after the socket: SSE parsing, JSON, event mapping, async delivery. */
async function providerParse(
  chunks: readonly Uint8Array[],
  decode: (body: AsyncIterable<Uint8Array>) => AsyncGenerator<{ type: string }>,
): Promise<number> {
  let events = 0;
  for await (const _event of decode(replay(chunks))) events += 1;
  return events;
}

interface Timing {
  milliseconds: number;
  megabytesPerSecond: number;
  units: number;
}

/**
 * Times both parsers over the same chunks, alternating run by run so load from other processes
 * hits both alike, and keeps each one's fastest run: the least disturbed measure on a shared machine.
 */
async function timePair(
  bytes: number,
  bare: () => Promise<number>,
  parsed: () => Promise<number>,
): Promise<[Timing, Timing]> {
  const best = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  const units = [0, 0];
  const runners = [bare, parsed];
  for (let round = -warmups; round < runs; round += 1) {
    for (const [slot, run] of runners.entries()) {
      const start = performance.now();
      const count = await run();
      const elapsed = performance.now() - start;
      if (round >= 0) best[slot] = Math.min(best[slot] ?? elapsed, elapsed);
      units[slot] = count;
    }
  }
  const timing = (slot: number): Timing => {
    const milliseconds = best[slot] ?? Number.NaN;
    return {
      milliseconds,
      megabytesPerSecond: bytes / 1024 / 1024 / (milliseconds / 1000),
      units: units[slot] ?? 0,
    };
  };
  return [timing(0), timing(1)];
}

async function main(): Promise<void> {
  const rows: string[] = [];
  for (const [name, wire, decode] of [
    ['OpenAI-compatible', openAIWire, (body: AsyncIterable<Uint8Array>) => decodeOpenAIStream(body)],
    ['Anthropic', anthropicWire, (body: AsyncIterable<Uint8Array>) => decodeAnthropicStream(body)],
  ] as const) {
    const bytes = record(wire);
    const chunks = chunk(bytes);
    const [bare, parsed] = await timePair(
      bytes.length,
      () => bareSplit(chunks),
      () => providerParse(chunks, decode),
    );
    process.stderr.write(
      `${name}: bare ${bare.milliseconds.toFixed(0)} ms, provider ${parsed.milliseconds.toFixed(0)} ms\n`,
    );
    const megabytes = (bytes.length / 1024 / 1024).toFixed(1);
    rows.push(
      `| ${name} | bare SSE line split | ${megabytes} | ${bare.milliseconds.toFixed(0)} | ${bare.megabytesPerSecond.toFixed(0)} | 1.00× | ${bare.units} data lines |`,
      `| ${name} | provider parser | ${megabytes} | ${parsed.milliseconds.toFixed(0)} | ${parsed.megabytesPerSecond.toFixed(0)} | ${(parsed.milliseconds / bare.milliseconds).toFixed(2)}× | ${parsed.units} chat events |`,
    );
  }
  process.stdout.write(
    [
      `Parser throughput (Node ${process.version}, ${chunkBytes / 1024} KiB chunks, best of ${runs} alternating runs)`,
      '',
      '| wire format | parser | MB | ms | MB/s | time vs bare split | output |',
      '| --- | --- | ---: | ---: | ---: | ---: | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
}

await main();
