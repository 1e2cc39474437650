import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors/agent-error.ts';
import { listFileComponents } from '../../src/files/component-listing.ts';
import { FileComponentSource, scanFileComponents } from '../../src/files/file-component-source.ts';
import { writePluginToggle } from '../../src/files/plugin-state.ts';
import { createTempWorld, pluginEntry, toolEntry, writeComponent } from './helpers.ts';
import type { TempWorld } from './helpers.ts';

let world: TempWorld;
beforeEach(async () => {
  world = await createTempWorld();
});
afterEach(async () => {
  await world.cleanup();
});

const skillEntry = (name: string, description: string): string =>
  `---\nversion: 1\nname: ${name}\ndescription: ${description}\n---\nPrompt of ${name}.\n`;

describe('FileComponentSource', () => {
  it('loads tools, skills and plugins of both layers with their paths', async () => {
    await writeComponent(world.home, 'tool', 'grep', toolEntry('grep', { command: './g.sh' }), {
      'g.sh': '#!/bin/sh\n',
    });
    await writeComponent(world.home, 'skill', 'commit', skillEntry('commit', 'Commit.'));
    await writeComponent(
      world.projectLayer,
      'plugin',
      'audit',
      pluginEntry('audit', { AfterToolUse: './a.sh' }, 'config: { level: 2 }\nenabled: false\n'),
    );
    const loaded = await new FileComponentSource().load({ cwd: world.cwd, home: world.home });
    expect(loaded.global.tools.map(({ tool, path }) => [tool.name, path])).toEqual([
      ['grep', join(world.home, 'tools', 'grep')],
    ]);
    expect(loaded.global.skills.map(({ skill }) => skill.name)).toEqual(['commit']);
    expect(loaded.project.plugins).toEqual([
      expect.objectContaining({
        config: { level: 2 },
        enabled: false,
        path: join(world.projectLayer, 'plugins', 'audit'),
      }),
    ]);
    expect(loaded.project.plugins[0]?.plugin.id).toBe('audit');
    expect(loaded.diagnostics).toEqual([]);
  });

  it('reads AGENT.md from both layers, SOUL.md and config.yaml from the home only', async () => {
    await writeFile(join(world.home, 'AGENT.md'), '  Global rules.\n');
    await mkdir(world.projectLayer, { recursive: true });
    await writeFile(join(world.projectLayer, 'AGENT.md'), 'Project rules.');
    await writeFile(join(world.home, 'SOUL.md'), 'Calm.');
    await writeFile(join(world.projectLayer, 'SOUL.md'), 'Loud.');
    await writeFile(join(world.projectLayer, 'config.yaml'), 'tool_timeout_ms: 1\n');
    await writeFile(join(world.home, 'config.yaml'), 'tool_timeout_ms: 9000\nmystery: 1\n');
    const loaded = await new FileComponentSource().load({ cwd: world.cwd, home: world.home });
    expect(loaded).toMatchObject({
      globalInstructions: 'Global rules.',
      projectInstructions: 'Project rules.',
      soul: 'Calm.',
      config: { toolTimeoutMs: 9000 },
    });
    expect(loaded.diagnostics.map((diagnostic) => [diagnostic.path, diagnostic.reason])).toEqual([
      [join(world.home, 'config.yaml'), 'unknown key `mystery` ignored'],
      [join(world.projectLayer, 'config.yaml'), expect.stringMatching(/read only from the global home/)],
      [join(world.projectLayer, 'SOUL.md'), expect.stringMatching(/read only from the global home/)],
    ]);
  });

  it('an empty home and project load nothing and report nothing', async () => {
    const loaded = await new FileComponentSource().load({
      cwd: world.cwd,
      home: join(world.root, 'missing-home'),
    });
    expect(loaded).toMatchObject({
      global: { tools: [], skills: [], plugins: [] },
      project: { tools: [], skills: [], plugins: [] },
      diagnostics: [],
    });
  });

  it('a malformed config.yaml makes load throw CONFIG_PARSE_ERROR naming the line', async () => {
    await writeFile(join(world.home, 'config.yaml'), 'tool_timeout_ms: 1000\ncompact_threshold: high\n');
    const error = await new FileComponentSource()
      .load({ cwd: world.cwd, home: world.home })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({
      code: 'CONFIG_PARSE_ERROR',
      details: { line: 2, key: 'compact_threshold' },
    });
  });

  it('skips invalid folders with a diagnostic and loads the rest', async () => {
    await writeComponent(world.home, 'tool', 'good', toolEntry('good', { command: 'true' }));
    await writeComponent(world.home, 'tool', 'wrong_name', toolEntry('other', { command: 'true' }));
    await writeComponent(
      world.home,
      'tool',
      'old',
      toolEntry('old', { command: 'true' }).replace('version: 1', 'version: 0'),
    );
    await writeComponent(world.home, 'tool', 'bad name!', toolEntry('bad name!', { command: 'true' }));
    await mkdir(join(world.home, 'tools', 'empty'), { recursive: true });
    await mkdir(join(world.home, 'tools', '.hidden'), { recursive: true });
    await writeFile(join(world.home, 'tools', 'README.md'), 'not a component');
    await writeComponent(
      world.home,
      'plugin',
      'broken',
      '---\nversion: 1\nid: broken\ndisplay_name: [unclosed\n---\n',
    );
    const scan = await scanFileComponents({ cwd: world.cwd, home: world.home });
    expect(scan.global.tools.map((tool) => tool.definition.name)).toEqual(['good']);
    const reasons = Object.fromEntries(
      scan.diagnostics.map((diagnostic) => [diagnostic.path.replace(world.home, '~'), diagnostic.reason]),
    );
    expect(reasons).toEqual({
      '~/tools/wrong_name/index.md': expect.stringMatching(
        /`name` is the text "other" but the folder is named "wrong_name"/,
      ),
      '~/tools/old/index.md': expect.stringMatching(/`version` must be 1, found the number 0/),
      '~/tools/bad name!': expect.stringMatching(/invalid folder name/),
      '~/tools/empty': 'missing index.md; skipped',
      '~/plugins/broken/index.md': expect.stringMatching(/invalid YAML/),
    });
    expect(
      scan.diagnostics.every(
        (diagnostic) => diagnostic.severity === 'error' && diagnostic.layer === 'global',
      ),
    ).toBe(true);
    expect(scan.diagnostics.find((diagnostic) => diagnostic.path.endsWith('old/index.md'))).toMatchObject({
      line: 2,
      kind: 'tool',
    });
  });

  it('reports odd shapes on disk: an oversized entry, an entry that is a folder, a kind folder that is a file, an unreadable AGENT.md', async () => {
    await writeComponent(
      world.home,
      'tool',
      'huge',
      `${toolEntry('huge', { command: 'true' })}${'x'.repeat(1024 * 1024)}`,
    );
    await mkdir(join(world.home, 'skills', 'odd', 'index.md'), { recursive: true });
    await writeFile(join(world.home, 'plugins'), 'not a folder');
    await mkdir(join(world.home, 'AGENT.md'));
    const scan = await scanFileComponents({ cwd: world.cwd, home: world.home });
    const reasons = Object.fromEntries(
      scan.diagnostics.map((diagnostic) => [diagnostic.path.replace(world.home, '~'), diagnostic.reason]),
    );
    expect(reasons).toEqual({
      '~/tools/huge/index.md': expect.stringMatching(/more than the 1048576 allowed; skipped/),
      '~/skills/odd/index.md': 'index.md is not a file; skipped',
      '~/plugins': 'plugins must be a folder',
      '~/AGENT.md': expect.stringMatching(/could not be read/),
    });
  });

  it('a skill folder with index.md and SKILL.md loads index.md and warns that SKILL.md was ignored', async () => {
    const directory = await writeComponent(world.home, 'skill', 'both', skillEntry('both', 'From index.'), {
      'SKILL.md': '---\nname: both\ndescription: From SKILL.md.\n---\nOther prompt.',
    });
    const scan = await scanFileComponents({ cwd: world.cwd, home: world.home });
    expect(scan.global.skills.map((skill) => skill.definition.description)).toEqual(['From index.']);
    expect(scan.diagnostics).toEqual([
      expect.objectContaining({
        path: join(directory, 'SKILL.md'),
        severity: 'warning',
        reason: expect.stringMatching(/ignored/),
      }),
    ]);
  });

  it('loads a SKILL.md-only skill from the common format', async () => {
    await writeComponent(world.projectLayer, 'skill', 'pdf', '', {}, 'SKILL.md');
    await writeFile(
      join(world.projectLayer, 'skills', 'pdf', 'SKILL.md'),
      '---\nname: pdf\ndescription: Work with PDFs.\nallowed-tools: Read\n---\nUse pdftotext.\n',
    );
    const loaded = await new FileComponentSource().load({ cwd: world.cwd, home: world.home });
    expect(loaded.project.skills.map(({ skill }) => skill)).toEqual([
      {
        name: 'pdf',
        displayName: 'pdf',
        description: 'Work with PDFs.',
        prompt: 'Use pdftotext.',
        requiredTools: [],
        allowImplicitInvocation: true,
        directory: join(world.projectLayer, 'skills', 'pdf'),
      },
    ]);
  });

  it('does not read the project layer twice when the working directory holds the home', async () => {
    const cwd = world.root;
    const home = join(world.root, '.youyou');
    await writeComponent(home, 'tool', 'once', toolEntry('once', { command: 'true' }));
    const loaded = await new FileComponentSource().load({ cwd, home });
    expect(loaded.global.tools).toHaveLength(1);
    expect(loaded.project.tools).toHaveLength(0);
  });

  it('follows a symbolic link to a component folder', async () => {
    const elsewhere = await writeComponent(
      join(world.root, 'shared'),
      'tool',
      'linked',
      toolEntry('linked', { command: 'true' }),
    );
    await mkdir(join(world.home, 'tools'), { recursive: true });
    await symlink(elsewhere, join(world.home, 'tools', 'linked'));
    const scan = await scanFileComponents({ cwd: world.cwd, home: world.home });
    expect(scan.global.tools.map((tool) => tool.definition.name)).toEqual(['linked']);
  });

  it('reads plugin toggles for this working directory, project toggles over global ones', async () => {
    await writePluginToggle(world.home, 'a', false, { scope: 'global' });
    await writePluginToggle(world.home, 'b', false, { scope: 'global' });
    await writePluginToggle(world.home, 'b', true, { scope: 'project', cwd: world.cwd });
    await writePluginToggle(world.home, 'c', false, { scope: 'project', cwd: join(world.root, 'elsewhere') });
    const loaded = await new FileComponentSource().load({ cwd: world.cwd, home: world.home });
    expect(loaded.pluginToggles).toEqual({ a: false, b: true });
  });

  it('a malformed plugin-state.json is a diagnostic, not a failure', async () => {
    await writeFile(join(world.home, 'plugin-state.json'), '{"version": 1, "global": {"a": "off"}}');
    const loaded = await new FileComponentSource().load({ cwd: world.cwd, home: world.home });
    expect(loaded.pluginToggles).toEqual({});
    expect(loaded.diagnostics[0]?.reason).toMatch(/not a valid plugin state file/);
  });
});

describe('listFileComponents', () => {
  it('marks global components that a project component overrides, and plugin enablement', async () => {
    await writeComponent(
      world.home,
      'tool',
      'grep',
      toolEntry('grep', { command: 'true', description: 'Global grep.' }),
    );
    await writeComponent(
      world.projectLayer,
      'tool',
      'grep',
      toolEntry('grep', { command: 'true', description: 'Project grep.' }),
    );
    await writeComponent(world.home, 'plugin', 'audit', pluginEntry('audit', {}, 'enabled: false\n'));
    await writeComponent(world.home, 'plugin', 'lint', pluginEntry('lint', {}));
    await writePluginToggle(world.home, 'lint', false, { scope: 'project', cwd: world.cwd });
    const entries = listFileComponents(await scanFileComponents({ cwd: world.cwd, home: world.home }));
    expect(entries).toEqual([
      {
        kind: 'tool',
        name: 'grep',
        layer: 'project',
        path: join(world.projectLayer, 'tools', 'grep'),
        enabled: true,
        description: 'Project grep.',
      },
      {
        kind: 'tool',
        name: 'grep',
        layer: 'global',
        path: join(world.home, 'tools', 'grep'),
        overriddenBy: 'project',
        enabled: false,
        description: 'Global grep.',
      },
      {
        kind: 'plugin',
        name: 'audit',
        layer: 'global',
        path: join(world.home, 'plugins', 'audit'),
        enabled: false,
        description: 'The audit plugin.',
      },
      {
        kind: 'plugin',
        name: 'lint',
        layer: 'global',
        path: join(world.home, 'plugins', 'lint'),
        enabled: false,
        description: 'The lint plugin.',
      },
    ]);
  });
});
