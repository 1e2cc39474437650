// File-tool round trip against a bare child_process.spawn of the same script (issue 3: within 10%).
// Run: npx tsx bench/files/tool-latency.ts [--iterations 300]   (or: node bench/files/tool-latency.ts)
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ToolHandler } from '@youyou/agent';
import { createFileTool, type FileToolDefinition } from '@youyou/agent/files';
import { milliseconds, numberOption, summarize } from './statistics.ts';

const ITERATIONS = numberOption('iterations', 300);

const SCRIPTS: Record<string, string> = {
  sh: '#!/bin/sh\ninput=$(cat)\necho "ok $input"\n',
  node: '#!/usr/bin/env node\nlet input = "";\nprocess.stdin.on("data", (c) => (input += c));\nprocess.stdin.on("end", () => console.log("ok " + input.length));\n',
};

/** The baseline: what any caller must do at least. Spawn, write stdin, read stdout, wait for close. */
function bareSpawn(file: string, input: string, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, [], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    child.stdin.end(input);
  });
}

const root = await mkdtemp(join(tmpdir(), 'youyou-bench-tool-'));
try {
  const home = join(root, 'home');
  const results: Record<string, unknown> = {};
  for (const [language, script] of Object.entries(SCRIPTS)) {
    const directory = join(home, 'tools', `echo_${language}`);
    await mkdir(directory, { recursive: true });
    const file = join(directory, 'run');
    await writeFile(file, script);
    await chmod(file, 0o755);
    const definition: FileToolDefinition = {
      name: `echo_${language}`,
      description: 'Echoes.',
      mutating: false,
      parameters: { type: 'object', properties: { text: { type: 'string' } } },
      execution: { command: './run', args: [] },
    };
    const tool: ToolHandler = createFileTool({ definition, componentDirectory: directory });
    const input = { callId: 'call', toolName: definition.name, arguments: { text: 'hello' } };
    const payload = JSON.stringify({
      call_id: input.callId,
      tool_name: input.toolName,
      arguments: input.arguments,
    });
    const viaTool = async (): Promise<number> => {
      const started = performance.now();
      await tool.execute(input, {
        signal: new AbortController().signal,
        cancelSignal: new AbortController().signal,
        sessionId: 's',
        turnId: 't',
        cwd: root,
        home,
      });
      return performance.now() - started;
    };
    const viaSpawn = async (): Promise<number> => {
      const started = performance.now();
      await bareSpawn(file, payload, root);
      return performance.now() - started;
    };
    for (let warm = 0; warm < 20; warm += 1) {
      await viaTool();
      await viaSpawn();
    }
    const toolTimes: number[] = [];
    const spawnTimes: number[] = [];
    for (let iteration = 0; iteration < ITERATIONS; iteration += 1) {
      // Alternate the order so drift and caching hit both sides alike.
      if (iteration % 2 === 0) {
        toolTimes.push(await viaTool());
        spawnTimes.push(await viaSpawn());
      } else {
        spawnTimes.push(await viaSpawn());
        toolTimes.push(await viaTool());
      }
    }
    const toolStats = summarize(toolTimes);
    const spawnStats = summarize(spawnTimes);
    const ratio = toolStats.median / spawnStats.median;
    console.log(`${language} script, ${String(ITERATIONS)} round trips each`);
    console.log(
      `  bare spawn   median ${milliseconds(spawnStats.median)}   mean ${milliseconds(spawnStats.mean)}   p95 ${milliseconds(spawnStats.p95)}`,
    );
    console.log(
      `  file tool    median ${milliseconds(toolStats.median)}   mean ${milliseconds(toolStats.mean)}   p95 ${milliseconds(toolStats.p95)}`,
    );
    console.log(
      `  file tool / bare spawn (medians): ${ratio.toFixed(3)} ${ratio <= 1.1 ? '(within 10%)' : '(OVER the 10% target)'}`,
    );
    results[language] = { spawnMedianMs: spawnStats.median, toolMedianMs: toolStats.median, ratio };
  }
  console.log(
    `BENCH_RESULT ${JSON.stringify({ benchmark: 'files-tool-latency', iterations: ITERATIONS, ...results })}`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
