/**
 * `search_files` (issue 10) against ripgrep on the same tree and the same queries: a project of
 * 5,000 text files (plus 500 in a .gitignored folder both must skip), three queries — a rare
 * literal, a case-insensitive common word, a regular expression. The tool is run as the agent's
 * dispatcher runs it (its handler: scope check, walk honouring .gitignore, read, match, render);
 * `rg` is spawned per query as a model's shell would (Debian's /usr/bin/rg, or `--rg <path>`).
 * Target: the tool's median within 2× of rg's.
 *   node --conditions=@youyou/source --import tsx bench/server/search-files.ts [--files 5000] [--rounds 15]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ToolContext } from '@youyou/agent';
import { searchFilesTool, WorkspaceScope } from '@youyou/server';
import { format, median, percentile, temporaryFolder } from './support.ts';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '15' },
    rg: { type: 'string', default: '/usr/bin/rg' },
  },
});
const FILES = Number(values.files);
const ROUNDS = Number(values.rounds);
const RG = values.rg;

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'parser', 'token', 'stream', 'buffer', 'value', 'result'];

/** A deterministic source-like file: ~60 lines, a rare needle in every 100th file. */
function fileText(index: number): string {
  const lines: string[] = [];
  for (let line = 0; line < 60; line++) {
    const word = WORDS[(index * 7 + line * 3) % WORDS.length] as string;
    if (line % 15 === 0) lines.push(`export function ${word}${String(line)}Handler(input: string): string {`);
    else
      lines.push(
        `  const ${word}_${String(line)} = compute("${word}", ${String(index * 60 + line)}); // line`,
      );
  }
  if (index % 100 === 0) lines.push(`// NEEDLE-${String(index)} marks this file`);
  if (index % 10 === 0) lines.push('  // the Parser reads the TOKEN stream here');
  return `${lines.join('\n')}\n`;
}

async function makeTree(root: string): Promise<void> {
  const perFolder = 100;
  for (let index = 0; index < FILES; index++) {
    const folder = join(root, 'src', `module${String(Math.floor(index / perFolder))}`);
    if (index % perFolder === 0) await mkdir(folder, { recursive: true });
    await writeFile(join(folder, `file${String(index)}.ts`), fileText(index));
  }
  // Ignored by both: a build folder with matches in it.
  await mkdir(join(root, 'build'), { recursive: true });
  for (let index = 0; index < FILES / 10; index++)
    await writeFile(join(root, 'build', `out${String(index)}.js`), fileText(index * 100));
  await writeFile(join(root, '.gitignore'), 'build/\n');
}

interface Query {
  label: string;
  tool: Record<string, unknown>;
  rg: string[];
}

const QUERIES: readonly Query[] = [
  {
    label: 'rare literal (NEEDLE-4200)',
    tool: { pattern: 'NEEDLE-4200', case_sensitive: true, max_results: 1000 },
    rg: ['--fixed-strings', '--case-sensitive', 'NEEDLE-4200'],
  },
  {
    label: 'literal, case-insensitive, in 10% of files ("the parser reads")',
    tool: { pattern: 'the parser reads', max_results: 1000 },
    rg: ['--fixed-strings', '--ignore-case', 'the parser reads'],
  },
  {
    label: 'regex (NEEDLE-\\d*7\\d\\d marks)',
    tool: { pattern: 'NEEDLE-\\d*7\\d\\d marks', regex: true, case_sensitive: true, max_results: 1000 },
    rg: ['--case-sensitive', 'NEEDLE-\\d*7\\d\\d marks'],
  },
];

function ripgrep(root: string, query: Query): Promise<{ ms: number; lines: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      RG,
      ['--no-require-git', '--line-number', '--no-heading', '--color', 'never', ...query.rg, '.'],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 10) lines++;
    });
    child.on('error', reject);
    child.on('close', () => resolve({ ms: performance.now() - started, lines }));
  });
}

const context = (root: string): ToolContext => ({
  signal: new AbortController().signal,
  cancelSignal: new AbortController().signal,
  sessionId: 'bench',
  turnId: 'bench',
  cwd: root,
  home: root,
});

if (!existsSync(RG)) {
  console.log(`ripgrep is not at ${RG}: nothing to compare with (install ripgrep or pass --rg).`);
  process.exit(0);
}
const folder = await temporaryFolder('search');
try {
  await makeTree(folder.path);
  const tool = searchFilesTool(async () => WorkspaceScope.create(folder.path, []));
  const viaTool = async (query: Query): Promise<{ ms: number; lines: number }> => {
    const started = performance.now();
    const output = await tool.execute(
      { callId: 'c', toolName: 'search_files', arguments: query.tool },
      context(folder.path),
    );
    const ms = performance.now() - started;
    const content = typeof output === 'string' ? output : String(output.content);
    return { ms, lines: content.split('\n').length - 1 };
  };
  const rows: string[] = [];
  const results: Record<string, unknown>[] = [];
  for (const query of QUERIES) {
    // Warm both (the page cache, the JIT) before timing.
    for (let warm = 0; warm < 3; warm++) {
      await viaTool(query);
      await ripgrep(folder.path, query);
    }
    const toolTimes: number[] = [];
    const rgTimes: number[] = [];
    let toolLines = 0;
    let rgLines = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order, so drift hits both alike.
      let own: { ms: number; lines: number };
      let theirs: { ms: number; lines: number };
      if (round % 2 === 0) {
        own = await viaTool(query);
        theirs = await ripgrep(folder.path, query);
      } else {
        theirs = await ripgrep(folder.path, query);
        own = await viaTool(query);
      }
      toolTimes.push(own.ms);
      rgTimes.push(theirs.ms);
      toolLines = own.lines;
      rgLines = theirs.lines;
    }
    if (toolLines !== rgLines) {
      throw new Error(`${query.label}: search_files found ${String(toolLines)} lines, rg ${String(rgLines)}`);
    }
    const ratio = median(toolTimes) / median(rgTimes);
    rows.push(
      `| ${query.label} | ${format(toolLines)} | ${format(median(toolTimes), 1)} | ${format(percentile(toolTimes, 0.95), 1)} | ${format(median(rgTimes), 1)} | ${format(percentile(rgTimes, 0.95), 1)} | ${format(ratio, 2)}× | ${ratio <= 2 ? 'met' : '**missed**'} |`,
    );
    results.push({
      query: query.label,
      matches: toolLines,
      toolMs: median(toolTimes),
      rgMs: median(rgTimes),
      ratio,
    });
  }
  console.log(
    `search_files over ${format(FILES)} files (+${format(FILES / 10)} ignored) against ${RG}, ${String(ROUNDS)} rounds each, medians in ms:\n`,
  );
  console.log('| Query | Matches | search_files p50 | p95 | rg p50 | p95 | tool ÷ rg | ≤ 2× |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const row of rows) console.log(row);
  console.log(`\nBENCH_RESULT ${JSON.stringify({ benchmark: 'search-files-vs-rg', files: FILES, results })}`);
} finally {
  await folder.remove();
}
