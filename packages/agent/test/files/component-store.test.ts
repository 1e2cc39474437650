import { lstat, mkdir, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors/agent-error.ts';
import { ComponentStore } from '../../src/files/component-store.ts';
import type { ComponentDraft } from '../../src/files/component-store.ts';
import { FileComponentSource } from '../../src/files/file-component-source.ts';
import { createTempWorld, pluginEntry, writeComponent } from './helpers.ts';
import type { TempWorld } from './helpers.ts';

let world: TempWorld;
let store: ComponentStore;
beforeEach(async () => {
  world = await createTempWorld();
  store = new ComponentStore({ cwd: world.cwd, home: world.home });
});
afterEach(async () => {
  await world.cleanup();
});

const helloTool: ComponentDraft = {
  kind: 'tool',
  name: 'hello',
  layer: 'project',
  frontMatter: {
    mutating: false,
    parameters: [{ name: 'who', type: 'string', required: true }],
    execution: { command: './hello.sh' },
  },
  body: 'Greets someone.',
  files: [
    { path: 'hello.sh', content: '#!/bin/sh\necho hello\n' },
    { path: 'docs/usage.txt', content: 'Call it.' },
  ],
};

async function failure(promise: Promise<unknown>): Promise<AgentError> {
  const error = await promise.catch((caught: unknown) => caught);
  if (error instanceof AgentError) return error;
  throw new Error(`expected an AgentError, got ${String(error)}`);
}

describe('ComponentStore', () => {
  it('creates a component folder with index.md and auxiliary files that the loader then loads', async () => {
    const created = await store.create(helloTool);
    expect(created).toMatchObject({
      kind: 'tool',
      name: 'hello',
      layer: 'project',
      directory: join(world.projectLayer, 'tools', 'hello'),
      entryFile: 'index.md',
      files: ['docs/usage.txt', 'hello.sh'],
      warnings: [],
    });
    expect(created.entry.startsWith('---\nversion: 1\nname: hello\n')).toBe(true);
    expect((await stat(join(created.directory, 'hello.sh'))).mode & 0o111).not.toBe(0);
    expect((await stat(join(created.directory, 'docs/usage.txt'))).mode & 0o111).toBe(0);
    const loaded = await new FileComponentSource().load({ cwd: world.cwd, home: world.home });
    expect(loaded.project.tools.map(({ tool }) => tool.name)).toEqual(['hello']);
    expect(loaded.diagnostics).toEqual([]);
  });

  it('lists components with their layer and what overrides them', async () => {
    await store.create({ ...helloTool, layer: 'global' });
    await store.create(helloTool);
    const { components } = await store.list();
    expect(
      components.map(({ name, layer, overriddenBy, enabled }) => ({ name, layer, overriddenBy, enabled })),
    ).toEqual([
      { name: 'hello', layer: 'project', overriddenBy: undefined, enabled: true },
      { name: 'hello', layer: 'global', overriddenBy: 'project', enabled: false },
    ]);
  });

  it('refuses a second component of the same name in a layer with NAME_CONFLICT', async () => {
    await store.create(helloTool);
    expect((await failure(store.create(helloTool))).code).toBe('NAME_CONFLICT');
  });

  it.each([
    ['an invalid name', { name: 'bad name' }, 'INVALID_INPUT', /Invalid tool name/],
    ['an unknown kind', { kind: 'widget' as never }, 'INVALID_INPUT', /Unknown component kind/],
    ['an unknown layer', { layer: 'system' as never }, 'INVALID_INPUT', /Unknown layer/],
    [
      'a file escaping the folder',
      { files: [{ path: '../../.bashrc', content: 'x' }] },
      'PATH_NOT_ALLOWED',
      /leave the component folder/,
    ],
    [
      'an absolute file path',
      { files: [{ path: '/etc/passwd', content: 'x' }] },
      'PATH_NOT_ALLOWED',
      /absolute/,
    ],
    ['a backslash path', { files: [{ path: 'a\\b', content: 'x' }] }, 'INVALID_INPUT', /use "\/"/],
    ['a reserved Windows name', { files: [{ path: 'con.txt', content: 'x' }] }, 'INVALID_INPUT', /reserved/],
    [
      'a control character',
      { files: [{ path: 'a\u0007b', content: 'x' }] },
      'INVALID_INPUT',
      /control characters/,
    ],
    [
      'index.md as an auxiliary file',
      { files: [{ path: 'index.md', content: 'x' }] },
      'INVALID_INPUT',
      /entry file/,
    ],
    [
      'the same file twice',
      {
        files: [
          { path: 'a', content: '' },
          { path: 'a', content: '' },
        ],
      },
      'INVALID_INPUT',
      /given twice/,
    ],
    [
      'front matter that would not load',
      { frontMatter: { execution: { command: './hello.sh', timeout_ms: -1 } } },
      'INVALID_INPUT',
      /would not load.*timeout_ms/,
    ],
    [
      'a name field that differs',
      { frontMatter: { name: 'other', execution: { command: './hello.sh' } } },
      'INVALID_INPUT',
      /folder is named "hello"/,
    ],
    [
      'a script it does not ship',
      { files: [] },
      'INVALID_INPUT',
      /runs hello.sh, which is not among its files/,
    ],
    ['an entry that is not front matter', { entry: 'just text' }, 'INVALID_INPUT', /missing front matter/],
  ])('validates before writing: %s', async (_label, change, code, message) => {
    const error = await failure(store.create({ ...helloTool, ...change } as ComponentDraft));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    await expect(stat(join(world.projectLayer, 'tools', 'hello'))).rejects.toThrow();
  });

  it('leaves no staging folder behind after a failed create', async () => {
    await store.create(helloTool);
    await failure(store.create(helloTool));
    expect(await readdir(join(world.projectLayer, 'tools'))).toEqual(['hello']);
  });

  it('creates a skill as SKILL.md in the Agent Skills format', async () => {
    const created = await store.create({
      kind: 'skill',
      name: 'pdf',
      layer: 'global',
      entryFile: 'SKILL.md',
      entry: '---\nname: pdf\ndescription: Work with PDFs.\n---\nUse pdftotext.\n',
    });
    expect(created.entryFile).toBe('SKILL.md');
    expect((await store.list()).components).toEqual([
      expect.objectContaining({ kind: 'skill', name: 'pdf', description: 'Work with PDFs.' }),
    ]);
  });

  it('updates the body, front matter and files; the entry is written last and the folder always loads', async () => {
    await store.create(helloTool);
    const updated = await store.update('tool', 'hello', 'project', {
      frontMatter: { mutating: true, execution: { command: './v2.sh' } },
      body: 'Greets, version 2.',
      files: [{ path: 'v2.sh', content: '#!/bin/sh\necho v2\n' }],
      removeFiles: ['hello.sh'],
    });
    expect(updated.files).toEqual(['docs/usage.txt', 'v2.sh']);
    expect(updated.frontMatter).toMatchObject({ version: 1, name: 'hello', mutating: true });
    expect(updated.body).toBe('Greets, version 2.');
    const loaded = await new FileComponentSource().load({ cwd: world.cwd, home: world.home });
    expect(loaded.project.tools[0]?.tool).toMatchObject({
      description: 'Greets, version 2.',
      mutating: true,
    });
  });

  it('an update that would break the component changes nothing', async () => {
    await store.create(helloTool);
    const before = await readFile(join(world.projectLayer, 'tools', 'hello', 'index.md'), 'utf8');
    expect(
      (await failure(store.update('tool', 'hello', 'project', { removeFiles: ['hello.sh'] }))).message,
    ).toMatch(/not among its files/);
    expect((await failure(store.update('tool', 'hello', 'project', { body: '' }))).code).toBe(
      'INVALID_INPUT',
    );
    expect(await readFile(join(world.projectLayer, 'tools', 'hello', 'index.md'), 'utf8')).toBe(before);
    expect((await store.read('tool', 'hello', 'project')).files).toContain('hello.sh');
  });

  it('refuses to write through a symbolic link inside a component folder', async () => {
    await store.create(helloTool);
    await mkdir(join(world.root, 'outside'));
    await symlink(join(world.root, 'outside'), join(world.projectLayer, 'tools', 'hello', 'linked'));
    const error = await failure(
      store.update('tool', 'hello', 'project', { files: [{ path: 'linked/evil.sh', content: 'x' }] }),
    );
    expect(error.code).toBe('PATH_NOT_ALLOWED');
    expect(await readdir(join(world.root, 'outside'))).toEqual([]);
  });

  it('reads auxiliary files, but not through ../', async () => {
    await store.create(helloTool);
    expect((await store.readFile('tool', 'hello', 'project', 'docs/usage.txt')).toString()).toBe('Call it.');
    expect((await failure(store.readFile('tool', 'hello', 'project', '../../../etc/passwd'))).code).toBe(
      'PATH_NOT_ALLOWED',
    );
  });

  it('deletes the whole folder; deleting a missing component says it was not found', async () => {
    await store.create(helloTool);
    await store.delete('tool', 'hello', 'project');
    expect(await readdir(join(world.projectLayer, 'tools'))).toEqual([]);
    const error = await failure(store.delete('tool', 'hello', 'project'));
    expect(error.code).toBe('TOOL_NOT_FOUND');
    const missingPlugin = await failure(store.delete('plugin', 'nope', 'global'));
    expect(missingPlugin.code).toBe('PLUGIN_NOT_FOUND');
    expect(missingPlugin.details).toMatchObject({ notFound: true });
  });

  it('a session built before a change keeps what it loaded; the next load sees the change', async () => {
    await store.create(helloTool);
    const before = await new FileComponentSource().load({ cwd: world.cwd, home: world.home });
    await store.update('tool', 'hello', 'project', { body: 'Changed.' });
    await store.delete('tool', 'hello', 'project');
    expect(before.project.tools[0]?.tool.description).toBe('Greets someone.');
    const after = await new FileComponentSource().load({ cwd: world.cwd, home: world.home });
    expect(after.project.tools).toEqual([]);
  });

  it('toggles a file plugin per project or globally, persisted in {home}/plugin-state.json', async () => {
    await writeComponent(world.home, 'plugin', 'audit', pluginEntry('audit', {}));
    await store.setPluginEnabled('audit', false);
    expect((await store.list()).components[0]).toMatchObject({ name: 'audit', enabled: false });
    const state = JSON.parse(await readFile(join(world.home, 'plugin-state.json'), 'utf8')) as unknown;
    expect(state).toEqual({ version: 1, global: {}, projects: { [world.cwd]: { audit: false } } });
    const other = new ComponentStore({ cwd: join(world.root, 'other'), home: world.home });
    expect((await other.list()).components[0]).toMatchObject({ enabled: true });
    await store.setPluginEnabled('audit', false, { scope: 'global' });
    expect((await other.list()).components[0]).toMatchObject({ enabled: false });
    await store.setPluginEnabled('audit', undefined);
    await store.setPluginEnabled('audit', undefined, { scope: 'global' });
    expect(JSON.parse(await readFile(join(world.home, 'plugin-state.json'), 'utf8'))).toEqual({
      version: 1,
      global: {},
      projects: {},
    });
    expect((await lstat(join(world.home, 'plugin-state.json'))).isFile()).toBe(true);
  });

  it('refuses to change toggles while plugin-state.json is malformed, and leaves the file alone', async () => {
    await writeComponent(world.home, 'plugin', 'audit', pluginEntry('audit', {}));
    await writeFile(join(world.home, 'plugin-state.json'), '{ broken');
    const error = await failure(store.setPluginEnabled('audit', false));
    expect(error.code).toBe('CONFIG_PARSE_ERROR');
    expect(await readFile(join(world.home, 'plugin-state.json'), 'utf8')).toBe('{ broken');
  });

  it('SKILL.md is only for skills', async () => {
    const error = await failure(store.create({ ...helloTool, entryFile: 'SKILL.md' }));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toMatch(/only for skills/);
  });

  it('refuses to toggle a plugin no file layer has (programmatic plugins are always on)', async () => {
    const error = await failure(store.setPluginEnabled('programmatic-only', false));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toMatch(/always on/);
  });
});
