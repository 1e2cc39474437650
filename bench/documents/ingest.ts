// Ingest throughput (issues 12 and 25, spec §4.11): parser time and MB/s per format through YouYou's built-in parsers (the
// IR with headings, tables, notes, locations) side by side with LangChain's loaders on the same
// files (docx, pdf, pptx: see langchain-loaders.ts), and which expected phrases each one's text
// holds. The files are made by the real producers (docx, pptxgenjs, exceljs, pdf-lib), English and
// Chinese, by the server's fixture generator.
//
//   node --conditions=@youyou/source --import tsx bench/documents/ingest.ts [--sections 200] [--runs 5]
//
// Prints a markdown table on stdout.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { blocksToText, DEFAULT_PARSE_POLICY } from '@youyou/contracts';
import { ParserRegistry, parseWithPolicy } from '@youyou/server';
import { scaledFixtures, type ScaledFixture } from '@youyou/testing/documents';
import { LANGCHAIN_LOADERS } from './langchain-loaders.ts';

const { values } = parseArgs({
  options: { sections: { type: 'string', default: '200' }, runs: { type: 'string', default: '5' } },
});
const sections = Number(values.sections);
const runs = Number(values.runs);
const registry = new ParserRegistry();

async function youyou(fixture: ScaledFixture): Promise<string> {
  const { result } = await parseWithPolicy({
    registry,
    policy: DEFAULT_PARSE_POLICY,
    input: {
      bytes: fixture.bytes,
      name: fixture.name,
      media_type: fixture.media_type,
      format: fixture.format,
    },
    signal: new AbortController().signal,
    progress: () => {},
  });
  if (!result.ok) throw new Error(`${fixture.name}: ${result.failure.reason} ${result.failure.message}`);
  return blocksToText(result.document.blocks);
}

interface Measured {
  ms: number;
  text: string;
}

/**
 * The median times of `runs` runs each after one warm-up, and the text of the last. The two
 * parsers take turns run by run (who goes first alternates), so a change in the machine's load
 * while a format is measured hits both alike; one after the other, the ratio moved up to 3x
 * between runs on a shared machine.
 */
async function measurePair(
  ours: () => Promise<string>,
  theirs: (() => Promise<string>) | undefined,
): Promise<{ ours: Measured; theirs: Measured | undefined }> {
  const sides = [ours, ...(theirs === undefined ? [] : [theirs])];
  const texts = await Promise.all(sides.map((parse) => parse()));
  const times: number[][] = sides.map(() => []);
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? sides.keys() : [...sides.keys()].reverse();
    for (const side of order) {
      const started = performance.now();
      texts[side] = await (sides[side] as () => Promise<string>)();
      times[side]?.push(performance.now() - started);
    }
  }
  const median = (values: number[]): number =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const measured = sides.map((_side, side) => ({
    ms: median(times[side] ?? []),
    text: texts[side] ?? '',
  }));
  return { ours: measured[0] as Measured, theirs: measured[1] };
}

const megabytes = (bytes: number): number => bytes / 1024 / 1024;
const rate = (bytes: number, ms: number): string => (megabytes(bytes) / (ms / 1000)).toFixed(2);
const found = (text: string, phrases: readonly string[]): string =>
  `${phrases.filter((phrase) => text.includes(phrase)).length}/${phrases.length}`;

const fixtures = await scaledFixtures(sections);
const rows: string[] = [];
const misses: string[] = [];
for (const fixture of fixtures) {
  const loader = LANGCHAIN_LOADERS[fixture.format];
  const { ours, theirs } = await measurePair(
    () => youyou(fixture),
    loader === undefined ? undefined : () => loader(fixture.bytes),
  );
  const ratio = theirs === undefined ? '—' : `${(theirs.ms / ours.ms).toFixed(2)}×`;
  rows.push(
    `| ${fixture.format} | ${megabytes(fixture.bytes.length).toFixed(2)} | ${ours.ms.toFixed(1)} | ${
      theirs === undefined ? '—' : theirs.ms.toFixed(1)
    } | ${rate(fixture.bytes.length, ours.ms)} | ${
      theirs === undefined ? '—' : rate(fixture.bytes.length, theirs.ms)
    } | ${ratio} | ${found(ours.text, fixture.phrases)} | ${theirs === undefined ? '—' : found(theirs.text, fixture.phrases)} |`,
  );
  for (const phrase of fixture.phrases) {
    if (!ours.text.includes(phrase)) misses.push(`- ${fixture.format}: YouYou missed “${phrase}”`);
    if (theirs !== undefined && !theirs.text.includes(phrase))
      misses.push(`- ${fixture.format}: LangChain missed “${phrase}”`);
  }
}

process.stdout.write(
  [
    `${sections} sections per document (pdf: ${sections} pages, pptx: ${sections} slides with notes, xlsx: ${sections * 20} rows), median of ${runs} runs after a warm-up, YouYou and LangChain taking turns; Node ${process.version}.`,
    '',
    '| format | MB | YouYou ms | LangChain ms | YouYou MB/s | LangChain MB/s | YouYou speed ÷ LangChain | phrases (YouYou) | phrases (LangChain) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    'YouYou builds the IR (headings, lists, tables, speaker notes, page/slide/sheet of every block) under the caps (xlsx/csv: 500 rows per table, the rest cut with a note — so their last rows are not expected); LangChain returns plain text. Formats without a LangChain loader show —.',
    '',
    ...(misses.length === 0
      ? ['Every expected phrase was found by both.']
      : ['Phrases not found:', ...misses]),
    '',
  ].join('\n'),
);
