import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFrontMatter } from '../../src/files/front-matter.ts';
import { scanLayer } from '../../src/files/layer-scan.ts';
import { readPluginEntry } from '../../src/files/plugin-entry.ts';
import { readAgentSkillEntry, readSkillEntry } from '../../src/files/skill-entry.ts';
import { readToolEntry } from '../../src/files/tool-entry.ts';
import { createTempWorld } from './helpers.ts';
import type { TempWorld } from './helpers.ts';

/** mulberry32: a small seeded generator, so a failing case can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = [
  'version',
  'name',
  'id',
  'display_name',
  'description',
  'mutating',
  'enabled',
  'parameters',
  'execution',
  'command',
  'args',
  'timeout_ms',
  'working_directory',
  'hooks',
  'config',
  'required_tools',
  'allow_implicit_invocation',
  'BeforeToolUse',
  'SessionStart',
  'type',
  'required',
  'items',
  'enum',
  '__proto__',
  'constructor',
  '',
  ' ',
  '?',
  '-',
];
const SCALARS = [
  '1',
  '2',
  '"1"',
  '1.0',
  '0x1',
  '-1',
  'true',
  'false',
  'null',
  '~',
  'yes',
  '[]',
  '{}',
  '[a, b]',
  '{a: 1}',
  '"x"',
  "'y'",
  'tool',
  'fuzz',
  '*a',
  '&a x',
  '!!str 1',
  '!!binary aGk=',
  '!custom x',
  '|',
  '>',
  '"unterminated',
  '\t',
  '💥',
  '\u0000',
  'a: b: c',
  '- item',
  '---',
  '...',
  '%YAML 1.2',
  '#comment',
  '[',
  '}',
  '9'.repeat(400),
  '1e400',
];
const BODIES = ['', 'A body.', '\n\n', '# Title\n\ntext', '---\nmore front matter?\n---', '\uFFFD\uFFFE'];

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)] as T;
}

const TEMPLATES = [
  [
    '---',
    'version: 1',
    'name: fuzz',
    'mutating: true',
    'parameters:',
    '  - name: path',
    '    type: string',
    '    description: A path',
    '    required: true',
    '  - name: mode',
    '    type: string',
    '    enum: [a, b]',
    'execution:',
    '  command: ./run.sh',
    '  args: [--x, 3]',
    '  timeout_ms: 500',
    '---',
    'Runs.',
  ],
  [
    '---',
    'version: 1',
    'name: fuzz',
    'display_name: Fuzz',
    'description: Does it.',
    'required_tools: [a, b]',
    'allow_implicit_invocation: true',
    '---',
    'Prompt text.',
  ],
  [
    '---',
    'version: 1',
    'id: fuzz',
    'display_name: Fuzz',
    'enabled: false',
    'config:',
    '  level: 3',
    'hooks:',
    '  BeforeToolUse:',
    '    command: ./hook.py',
    '    timeout_ms: 100',
    '  SessionStart:',
    '    command: node',
    '    args: [./start.js]',
    '---',
    'Describes.',
  ],
];

/** A valid template with a few lines deleted, duplicated, re-indented or replaced by noise. */
function mutate(next: () => number): string {
  const lines = [...pick(next, TEMPLATES)];
  const edits = 1 + Math.floor(next() * 3);
  for (let edit = 0; edit < edits; edit += 1) {
    const at = Math.floor(next() * lines.length);
    const line = lines[at] ?? '';
    const operation = next();
    if (operation < 0.25) lines.splice(at, 1);
    else if (operation < 0.4) lines.splice(at, 0, line);
    else if (operation < 0.55) lines[at] = `${' '.repeat(Math.floor(next() * 5))}${line.trimStart()}`;
    else if (operation < 0.8) lines[at] = line.replace(/:.*$/, `: ${pick(next, SCALARS)}`);
    else lines[at] = `${pick(next, KEYS)}: ${pick(next, SCALARS)}`;
  }
  return lines.join('\n');
}

/** Builds a document out of valid-looking and broken pieces: mappings, lists, bad indentation. */
function generate(next: () => number): string {
  if (next() < 0.5) return mutate(next);
  const lines: string[] = [];
  const count = Math.floor(next() * 12);
  for (let index = 0; index < count; index += 1) {
    const indent = ' '.repeat(Math.floor(next() * 3) * 2);
    const shape = next();
    if (shape < 0.55) lines.push(`${indent}${pick(next, KEYS)}: ${pick(next, SCALARS)}`);
    else if (shape < 0.7) lines.push(`${indent}${pick(next, KEYS)}:`);
    else if (shape < 0.85) lines.push(`${indent}- ${pick(next, KEYS)}: ${pick(next, SCALARS)}`);
    else lines.push(`${indent}${pick(next, SCALARS)}`);
  }
  const opening = next() < 0.9 ? '---' : pick(next, ['', '--', '--- x', '+++']);
  const closing = next() < 0.85 ? '---' : pick(next, ['', '..', '...']);
  const newline = next() < 0.8 ? '\n' : '\r\n';
  return [opening, ...lines, closing, pick(next, BODIES)].join(newline);
}

const SEED = Number(process.env['FUZZ_SEED'] ?? 20260312);
const CASES = 3000;

describe('front matter loader under random input', () => {
  let world: TempWorld;
  beforeAll(async () => {
    world = await createTempWorld();
  });
  afterAll(async () => {
    await world.cleanup();
  });

  it(`never throws and always explains a rejection (seed ${String(SEED)}, ${String(CASES)} documents)`, () => {
    const next = random(SEED);
    let accepted = 0;
    let parsedCount = 0;
    for (let index = 0; index < CASES; index += 1) {
      const text = generate(next);
      const replay = `seed ${String(SEED)}, case ${String(index)}:\n${text}`;
      const parsed = parseFrontMatter(text);
      if (!parsed.ok) {
        expect(parsed.failure.reason, replay).not.toBe('');
        continue;
      }
      parsedCount += 1;
      for (const read of [readToolEntry, readSkillEntry, readAgentSkillEntry, readPluginEntry]) {
        let result: ReturnType<typeof read> | undefined;
        expect(() => (result = read(parsed.value, 'fuzz')), replay).not.toThrow();
        if (result !== undefined && !result.ok) expect(result.errors.length, replay).toBeGreaterThan(0);
        if (result?.ok === true) accepted += 1;
      }
    }
    expect(parsedCount).toBeGreaterThan(CASES / 10);
    expect(accepted).toBeGreaterThan(0);
  });

  it('the folder loader skips each broken folder with a diagnostic naming it and loads the rest', async () => {
    const next = random(SEED + 1);
    const layer = join(world.root, 'fuzz-layer');
    const names: string[] = [];
    for (let index = 0; index < 200; index += 1) {
      const kind = pick(next, ['tools', 'skills', 'plugins'] as const);
      const name = `f${String(index)}`;
      names.push(`${kind}/${name}`);
      await mkdir(join(layer, kind, name), { recursive: true });
      await writeFile(
        join(layer, kind, name, kind === 'skills' && next() < 0.3 ? 'SKILL.md' : 'index.md'),
        generate(next),
      );
    }
    const scan = await scanLayer(layer, 'global');
    const loaded = new Set([
      ...scan.tools.map((tool) => `tools/${tool.directory.split('/').pop() ?? ''}`),
      ...scan.skills.map((skill) => `skills/${skill.directory.split('/').pop() ?? ''}`),
      ...scan.plugins.map((plugin) => `plugins/${plugin.directory.split('/').pop() ?? ''}`),
    ]);
    for (const name of names) {
      if (loaded.has(name)) continue;
      const explained = scan.diagnostics.some(
        (diagnostic) =>
          diagnostic.severity === 'error' && diagnostic.path.includes(`/${name}`) && diagnostic.reason !== '',
      );
      expect(explained, `${name} was neither loaded nor explained`).toBe(true);
    }
  });
});
