// How long AgentBuilder.build() takes with 300 file components across both layers (issue 3).
// Run: npx tsx bench/files/build-components.ts [--iterations 30]   (or: node bench/files/build-components.ts)
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentBuilder, silentLogger, type ModelProvider } from '@youyou/agent';
import { FileComponentSource } from '@youyou/agent/files';
import { milliseconds, numberOption, summarize } from './statistics.ts';

const ITERATIONS = numberOption('iterations', 30);
const PER_KIND_PER_LAYER = 50; // 3 kinds × 2 layers × 50 = 300 components

const provider: ModelProvider = {
  id: 'bench',
  listModels: () => [
    {
      id: 'bench-model',
      displayName: 'Bench',
      contextWindow: 100_000,
      capabilities: { toolUse: true, vision: false, streaming: true },
    },
  ],
  async *chat() {
    yield { type: 'done' };
  },
};

/** Writes 150 components; a new `edition` changes every entry file, so nothing parsed before is reused. */
async function writeLayer(layer: string, prefix: string, edition = 0): Promise<void> {
  const stamp = `\n<!-- edition ${String(edition)} -->\n`;
  for (let index = 0; index < PER_KIND_PER_LAYER; index += 1) {
    // Half the names collide across layers, so the build also resolves overrides.
    const suffix = index < PER_KIND_PER_LAYER / 2 ? `shared_${String(index)}` : `${prefix}_${String(index)}`;
    const tool = join(layer, 'tools', `tool_${suffix}`);
    await mkdir(tool, { recursive: true });
    await writeFile(
      join(tool, 'index.md'),
      `---\nversion: 1\nname: tool_${suffix}\nmutating: false\nparameters:\n  - { name: path, type: string, description: A path, required: true }\n  - { name: limit, type: integer }\nexecution:\n  command: ./run.sh\n  timeout_ms: 5000\n---\nReads a file and returns its first lines.${stamp}`,
    );
    await writeFile(join(tool, 'run.sh'), '#!/bin/sh\ncat\n');
    await chmod(join(tool, 'run.sh'), 0o755);
    const skill = join(layer, 'skills', `skill_${suffix}`);
    await mkdir(skill, { recursive: true });
    await writeFile(
      join(skill, 'index.md'),
      `---\nversion: 1\nname: skill_${suffix}\ndescription: Does a thing.\nallow_implicit_invocation: true\n---\n${'Follow these steps carefully. '.repeat(20)}${stamp}`,
    );
    const plugin = join(layer, 'plugins', `plugin_${suffix}`);
    await mkdir(plugin, { recursive: true });
    await writeFile(
      join(plugin, 'index.md'),
      `---\nversion: 1\nid: plugin_${suffix}\ndisplay_name: Plugin ${suffix}\nconfig: { level: 2 }\nhooks:\n  BeforeToolUse: { command: ./hook.sh, timeout_ms: 2000 }\n  AfterToolUse: { command: ./hook.sh }\n---\nWatches tool calls.${stamp}`,
    );
    await writeFile(join(plugin, 'hook.sh'), '#!/bin/sh\necho {}\n');
    await chmod(join(plugin, 'hook.sh'), 0o755);
  }
}

const root = await mkdtemp(join(tmpdir(), 'youyou-bench-build-'));
try {
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  await writeLayer(home, 'global');
  await writeLayer(join(cwd, '.youyou'), 'project');

  const build = async (): Promise<{ milliseconds: number; components: number }> => {
    const started = performance.now();
    const agent = await new AgentBuilder({ cwd, home })
      .setLogger(silentLogger)
      .addProvider(provider)
      .addComponentSource(new FileComponentSource())
      .build();
    const elapsed = performance.now() - started;
    const components = agent.components().length;
    await agent.shutdown();
    return { milliseconds: elapsed, components };
  };
  const loadOnly = async (): Promise<number> => {
    const started = performance.now();
    await new FileComponentSource().load({ cwd, home });
    return performance.now() - started;
  };

  const first = await build(); // cold: the first build also compiles the loader
  for (let warm = 0; warm < 3; warm += 1) await build();
  const builds: number[] = [];
  const uncachedBuilds: number[] = [];
  const loads: number[] = [];
  for (let iteration = 0; iteration < ITERATIONS; iteration += 1) {
    await writeLayer(home, 'global', iteration + 1);
    await writeLayer(join(cwd, '.youyou'), 'project', iteration + 1);
    uncachedBuilds.push((await build()).milliseconds);
    builds.push((await build()).milliseconds);
    loads.push(await loadOnly());
  }
  const buildStats = summarize(builds);
  const uncachedStats = summarize(uncachedBuilds);
  const loadStats = summarize(loads);
  console.log(
    `build() with 300 file components (150 global + 150 project, ${String(first.components)} listed incl. overridden)`,
  );
  console.log(`  first build in the process (cold) ${milliseconds(first.milliseconds)}`);
  console.log(
    `  build(), every entry parsed      median ${milliseconds(uncachedStats.median)}   p95 ${milliseconds(uncachedStats.p95)}   (n=${String(uncachedStats.count)})`,
  );
  console.log(
    `  build(), entries unchanged      median ${milliseconds(buildStats.median)}   p95 ${milliseconds(buildStats.p95)}`,
  );
  console.log(
    `  load() alone, entries unchanged median ${milliseconds(loadStats.median)}   p95 ${milliseconds(loadStats.p95)}`,
  );
  console.log(
    `BENCH_RESULT ${JSON.stringify({ benchmark: 'files-build-300', coldMs: first.milliseconds, uncachedBuildMedianMs: uncachedStats.median, buildMedianMs: buildStats.median, buildP95Ms: buildStats.p95, loadMedianMs: loadStats.median, components: first.components })}`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
