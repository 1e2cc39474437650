import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import type { CliIo } from '../src/cli-io.ts';
import type { DoctorReport } from '../src/doctor-command.ts';

let root: string;
let home: string;
let cwd: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'youyou-cli-'));
  home = join(root, 'home');
  cwd = join(root, 'project');
  await mkdir(home, { recursive: true });
  await mkdir(cwd, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function youyou(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    environment: { YOUYOU_HOME: home },
    cwd,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

async function json<T>(...argv: string[]): Promise<{ code: number; value: T }> {
  const result = await youyou(...argv, '--json');
  return { code: result.code, value: JSON.parse(result.stdout) as T };
}

describe('youyou components', () => {
  it('add scaffolds a working tool, list shows it, remove deletes it', async () => {
    const added = await youyou('components', 'add', 'tool', 'word_count');
    expect(added).toMatchObject({
      code: 0,
      stdout: `Added tool word_count (global) at ${join(home, 'tools', 'word_count')}\n`,
    });
    expect((await stat(join(home, 'tools', 'word_count', 'run.sh'))).mode & 0o111).not.toBe(0);
    const listed = await json<{ components: { name: string; layer: string }[] }>('components', 'list');
    expect(listed.value.components).toEqual([
      expect.objectContaining({ kind: 'tool', name: 'word_count', layer: 'global', enabled: true }),
    ]);
    expect((await youyou('components', 'list')).stdout).toMatch(/tool\s+word_count\s+global\s+active/);
    expect(await youyou('components', 'remove', 'tool', 'word_count')).toMatchObject({ code: 0 });
    expect((await json<{ components: unknown[] }>('components', 'list')).value.components).toEqual([]);
  });

  it('adds each kind to the project layer; plural kinds are accepted', async () => {
    for (const kind of ['tools', 'skill', 'plugin']) {
      expect((await youyou('components', 'add', kind, `my_${kind}`, '--project')).code).toBe(0);
    }
    const { value } = await json<{ components: { kind: string; layer: string }[]; diagnostics: unknown[] }>(
      'components',
      'list',
    );
    expect(value.components.map((component) => [component.kind, component.layer])).toEqual([
      ['tool', 'project'],
      ['skill', 'project'],
      ['plugin', 'project'],
    ]);
    expect(value.diagnostics).toEqual([]);
  });

  it('add --from copies a SKILL.md skill folder unchanged', async () => {
    const source = join(root, 'downloads', 'pdf');
    await mkdir(join(source, 'scripts'), { recursive: true });
    await writeFile(
      join(source, 'SKILL.md'),
      '---\nname: pdf\ndescription: Work with PDFs.\n---\nUse scripts/extract.py.\n',
    );
    await writeFile(join(source, 'scripts', 'extract.py'), '#!/usr/bin/env python3\nprint("text")\n');
    await chmod(join(source, 'scripts', 'extract.py'), 0o755);
    const { code, value } = await json<{ files: string[]; path: string }>(
      'components',
      'add',
      'skill',
      '--from',
      source,
    );
    expect(code).toBe(0);
    expect(value.files).toEqual(['scripts/extract.py']);
    expect(await readFile(join(home, 'skills', 'pdf', 'SKILL.md'), 'utf8')).toMatch(/^---\nname: pdf/);
    expect((await stat(join(home, 'skills', 'pdf', 'scripts', 'extract.py'))).mode & 0o111).not.toBe(0);
  });

  it('enable and disable toggle a file plugin for this project or globally', async () => {
    await youyou('components', 'add', 'plugin', 'audit');
    expect(await youyou('components', 'disable', 'audit')).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/disabled in .*next session/),
    });
    expect((await youyou('components', 'list')).stdout).toMatch(/plugin\s+audit\s+global\s+disabled/);
    expect((await youyou('components', 'enable', 'audit', '--global')).code).toBe(0);
    const state = JSON.parse(await readFile(join(home, 'plugin-state.json'), 'utf8')) as unknown;
    expect(state).toEqual({ version: 1, global: { audit: true }, projects: { [cwd]: { audit: false } } });
  });

  it.each([
    [['components', 'add', 'tool', 'bad name'], 1, 'INVALID_INPUT'],
    [['components', 'remove', 'tool', 'missing'], 1, 'TOOL_NOT_FOUND'],
    [['components', 'disable', 'not-a-file-plugin'], 1, 'INVALID_INPUT'],
    [['components', 'add', 'widget', 'x'], 2, 'USAGE'],
    [['components', 'frobnicate'], 2, 'USAGE'],
    [['components'], 2, 'USAGE'],
    [['components', 'list', '--colour'], 2, 'USAGE'],
    [['components', 'add', 'tool', 'x', '--global', '--project'], 2, 'USAGE'],
    [['launch'], 2, 'USAGE'],
  ])('youyou %j exits %i with a %s error', async (argv, code, errorCode) => {
    const result = await json<{ error: { code: string; message: string } }>(...argv);
    expect(result.code).toBe(code);
    expect(result.value.error.code).toBe(errorCode);
    const text = await youyou(...argv);
    expect(text.code).toBe(code);
    expect(text.stderr).toMatch(/^youyou: /);
  });

  it('a second add of the same name fails with NAME_CONFLICT and exit code 1', async () => {
    await youyou('components', 'add', 'skill', 'commit');
    const result = await json<{ error: { code: string } }>('components', 'add', 'skill', 'commit');
    expect(result).toMatchObject({ code: 1, value: { error: { code: 'NAME_CONFLICT' } } });
  });

  it('remove asks which layer when both have the component', async () => {
    await youyou('components', 'add', 'skill', 'commit');
    await youyou('components', 'add', 'skill', 'commit', '--project');
    expect((await youyou('components', 'remove', 'skill', 'commit')).code).toBe(2);
    expect((await youyou('components', 'remove', 'skill', 'commit', '--project')).code).toBe(0);
    expect((await youyou('components', 'remove', 'skill', 'commit')).code).toBe(0);
  });
});

describe('youyou doctor', () => {
  it('exits 0 and reports the layers, components and effective config when everything loads', async () => {
    await writeFile(join(home, 'config.yaml'), 'tool_timeout_ms: 5000\n');
    await youyou('components', 'add', 'tool', 'grep');
    await youyou('components', 'add', 'tool', 'grep', '--project');
    const { code, value } = await json<DoctorReport>('doctor');
    expect(code).toBe(0);
    expect(value).toMatchObject({
      status: 'ok',
      home,
      cwd,
      projectLayer: join(cwd, '.youyou'),
      skipped: [],
      config: { toolTimeoutMs: 5000, compactThreshold: 0.8 },
      configSources: { toolTimeoutMs: 'config.yaml', compactThreshold: 'default' },
    });
    expect(value.components.map((component) => [component.layer, component.overriddenBy])).toEqual([
      ['project', undefined],
      ['global', 'project'],
    ]);
    const text = await youyou('doctor');
    expect(text.stdout).toMatch(/tool\s+grep\s+global\s+overridden by project/);
    expect(text.stdout).toMatch(/toolTimeoutMs\s+5000\s+config\.yaml/);
  });

  it('lists the workbench settings that wait for a server restart', async () => {
    await mkdir(join(home, 'workbench'), { recursive: true });
    await writeFile(
      join(home, 'workbench', 'settings-restart.json'),
      JSON.stringify({
        started_at: '2026-01-01T00:00:00.000Z',
        settings: [{ key: 'server.max_upload_mb', running: 20, stored: 5, pending: true }],
      }),
    );
    const { value } = await json<DoctorReport>('doctor');
    expect(value.workbenchRestart?.settings).toEqual([
      { key: 'server.max_upload_mb', running: 20, stored: 5, pending: true },
    ]);
    expect((await youyou('doctor')).stdout).toMatch(
      /server\.max_upload_mb\s+5\s+restart needed \(running 20\)/,
    );
  });

  it('exits 3 and says why when a folder was skipped', async () => {
    await mkdir(join(home, 'tools', 'old'), { recursive: true });
    await writeFile(join(home, 'tools', 'old', 'index.md'), '---\nversion: 2\nname: old\n---\n');
    const { code, value } = await json<DoctorReport>('doctor');
    expect(code).toBe(3);
    expect(value.status).toBe('problems');
    expect(value.skipped[0]).toMatchObject({ path: join(home, 'tools', 'old', 'index.md'), line: 2 });
    expect((await youyou('doctor')).stdout).toContain(`${join(home, 'tools', 'old', 'index.md')}:2`);
  });

  it('exits 1 when config.yaml is broken, naming the line', async () => {
    await writeFile(join(home, 'config.yaml'), 'tool_timeout_ms: 10\ncompact_threshold: lots\n');
    const { code, value } = await json<DoctorReport>('doctor');
    expect(code).toBe(1);
    expect(value.status).toBe('broken');
    expect(value.configFile.error).toMatch(/config\.yaml:2:/);
  });
});

/** Writes a skill folder (SKILL.md and any extra files) as a public collection ships it. */
async function writeSkillFolder(
  layer: string,
  folder: string,
  skillMd: string,
  extra: Record<string, string> = {},
) {
  const directory = join(layer, 'skills', folder);
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'SKILL.md'), skillMd);
  for (const [path, text] of Object.entries(extra)) {
    await mkdir(join(directory, path, '..'), { recursive: true });
    await writeFile(join(directory, path), text);
  }
  return directory;
}

describe('youyou doctor with real public skill collections', () => {
  it('anthropics/skills-style folders and plugin-shipped skills (version 0.1.0, display-style names) all load', async () => {
    // Shaped like github.com/anthropics/skills: name = folder, license, scripts/ and reference files.
    await writeSkillFolder(
      home,
      'pdf',
      '---\nname: pdf\ndescription: Comprehensive PDF manipulation toolkit for extracting text and tables, creating new PDFs, merging/splitting documents, and handling forms. When Claude needs to fill in a PDF form or programmatically process, generate, or analyze PDF documents at scale.\nlicense: Proprietary. LICENSE.txt has complete terms\n---\n\n# PDF Processing Guide\n\nFor advanced features, see REFERENCE.md. To fill a form, run `python scripts/fill_fillable_fields.py`.\n',
      {
        'REFERENCE.md': '# Reference\n',
        'scripts/fill_fillable_fields.py': 'print(1)\n',
        'LICENSE.txt': 'terms\n',
      },
    );
    await writeSkillFolder(
      home,
      'mcp-builder',
      '---\nname: mcp-builder\ndescription: Guide for creating high-quality MCP (Model Context Protocol) servers that enable LLMs to interact with external services through well-designed tools.\nlicense: Complete terms in LICENSE.txt\n---\n\n# MCP Server Development Guide\n\nLoad [📋 MCP Best Practices](./reference/mcp_best_practices.md).\n',
      { 'reference/mcp_best_practices.md': '# Best practices\n' },
    );
    // Shaped like skills shipped inside an agent tool's plugins: `version` is the skill's own and
    // `name` is a display name, not the folder.
    await writeSkillFolder(
      join(cwd, '.youyou'),
      'frontend-design',
      '---\nname: Frontend Design\ndescription: This skill should be used when the user asks to build web components, pages, or applications with distinctive, production-grade design.\nversion: 0.1.0\n---\n\nCreate distinctive, production-grade frontend interfaces.\n',
    );
    await writeSkillFolder(
      join(cwd, '.youyou'),
      'hook-development',
      '---\nname: Hook Development\ndescription: This skill should be used when the user asks to "create a hook", "add a PreToolUse hook" or mentions hook events.\nversion: 0.1.0\n---\n\n# Hook Development\n\nSee examples/validate-write.sh.\n',
      { 'examples/validate-write.sh': '#!/bin/sh\n' },
    );
    const { code, value } = await json<DoctorReport>('doctor');
    expect(value.skipped).toEqual([]);
    expect(code).toBe(0);
    const skills = value.components.filter((component) => component.kind === 'skill');
    expect(skills.map((skill) => skill.name).sort()).toEqual([
      'frontend-design',
      'hook-development',
      'mcp-builder',
      'pdf',
    ]);
    const renamed = value.warnings.filter((warning) => /the skill loads as/.test(warning.reason));
    expect(renamed.map((warning) => warning.path).sort()).toEqual([
      join(cwd, '.youyou', 'skills', 'frontend-design', 'SKILL.md'),
      join(cwd, '.youyou', 'skills', 'hook-development', 'SKILL.md'),
    ]);
    expect(renamed[0]).toMatchObject({ line: 2 });
    expect(value.warnings.some((warning) => /version/.test(warning.reason))).toBe(false);
    const text = (await youyou('doctor')).stdout;
    expect(text).toMatch(/skill\s+frontend-design\s+project/);
    expect(text).toContain(
      'field `name` is the text "Frontend Design" but the folder is named "frontend-design"',
    );
  });

  it('an unquoted `description: Use when: …` is skipped with the line and how to quote it', async () => {
    await writeSkillFolder(
      home,
      'xlsx',
      '---\nname: xlsx\ndescription: Use when: the user works with spreadsheets\n---\nUse openpyxl.\n',
    );
    const { code, value } = await json<DoctorReport>('doctor');
    expect(code).toBe(3);
    expect(value.skipped).toHaveLength(1);
    expect(value.skipped[0]).toMatchObject({ path: join(home, 'skills', 'xlsx', 'SKILL.md'), line: 3 });
    expect(value.skipped[0]?.reason).toContain('invalid YAML');
    expect(value.skipped[0]?.reason).toContain('description: "Use when: the user works with spreadsheets"');
    expect((await youyou('doctor')).stdout).toContain(`${join(home, 'skills', 'xlsx', 'SKILL.md')}:3`);
  });

  it('AGENTS.md at the project root is read as project instructions, before .youyou/AGENT.md', async () => {
    await writeFile(join(cwd, 'AGENTS.md'), '# Repo conventions\nRun npm test.\n');
    await mkdir(join(cwd, '.youyou'), { recursive: true });
    await writeFile(join(cwd, '.youyou', 'AGENT.md'), 'YouYou-specific notes.\n');
    const { value } = await json<DoctorReport>('doctor');
    expect(value.instructions).toMatchObject({
      agentsMd: true,
      projectAgentMd: true,
      projectFiles: [join(cwd, 'AGENTS.md'), join(cwd, '.youyou', 'AGENT.md')],
    });
    expect((await youyou('doctor')).stdout).toContain('AGENTS.md: found');
  });
});

describe('the youyou executable', () => {
  // The published bin/youyou.js runs dist/bin.js: e2e/packages/pack.test.ts runs it installed.
  it('runs as its own process with real exit codes', () => {
    const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
    const environment = { ...process.env, YOUYOU_HOME: home };
    const run = (...argv: string[]) =>
      spawnSync(process.execPath, ['--conditions=@youyou/source', bin, ...argv], {
        encoding: 'utf8',
        env: environment,
      });
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('youyou components list');
    const doctor = run('doctor', '--json', '--cwd', cwd);
    expect(doctor.status).toBe(0);
    expect((JSON.parse(doctor.stdout) as DoctorReport).home).toBe(home);
    expect(run('nonsense').status).toBe(2);
  });
});
