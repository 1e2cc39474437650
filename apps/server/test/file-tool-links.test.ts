import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolContext, ToolHandler } from '@youyou/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFilesTool } from '../src/tools/list-files.ts';
import { readFileTool } from '../src/tools/read-file.ts';
import { searchFilesTool } from '../src/tools/search-files.ts';
import { WorkspaceScope } from '../src/tools/workspace-scope.ts';

/**
 * The file tools over a project with symlinks to files and folders inside and outside it (issue
 * 24): every link is resolved to its real path before the allow-list check, a link out of the
 * project is skipped and the result says so. No storage is involved, so no database.
 */
describe('file tools and symlinks', () => {
  let root: string;
  let project: string;
  let tools: { list: ToolHandler; search: ToolHandler; read: ToolHandler };

  const context = (): ToolContext => ({
    signal: new AbortController().signal,
    cancelSignal: new AbortController().signal,
    sessionId: 'no-run',
    turnId: 'turn',
    cwd: project,
    home: root,
  });
  const call = async (tool: ToolHandler, args: Record<string, unknown>) =>
    tool.execute({ callId: 'c1', toolName: tool.name, arguments: args }, context());

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'youyou-links-')));
    project = join(root, 'project');
    const outside = join(root, 'outside');
    await mkdir(join(project, 'src', 'deep'), { recursive: true });
    await mkdir(join(outside, 'folder'), { recursive: true });
    await writeFile(join(outside, 'secret'), 'TOPSECRET outside\n');
    await writeFile(join(outside, 'folder', 'more.txt'), 'TOPSECRET in a folder outside\n');
    await writeFile(join(project, 'src', 'deep', 'real.txt'), 'inside needle\n');
    await symlink(join(outside, 'secret'), join(project, 'src', 'leak.txt'));
    await symlink(join(outside, 'folder'), join(project, 'src', 'deep', 'away'));
    await symlink(join(project, 'src', 'deep', 'real.txt'), join(project, 'alias.txt'));
    await symlink(join(project, 'src', 'deep'), join(project, 'shortcut'));
    // A link back up the tree: followed once, no loop.
    await symlink(project, join(project, 'src', 'loop'));
    const scopeOf = async () => WorkspaceScope.create(project, []);
    tools = { list: listFilesTool(scopeOf), search: searchFilesTool(scopeOf), read: readFileTool(scopeOf) };
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('search_files never sends the content of a linked file or folder outside the project, and says it skipped them', async () => {
    const output = await call(tools.search, { pattern: 'TOPSECRET' });
    expect(output.content).not.toContain('TOPSECRET outside');
    expect(output.content).not.toContain('in a folder outside');
    expect(output.content).toContain('No matches');
    expect(output.content).toContain('Skipped 2 links pointing out of the project');
    expect(output.content).toContain('src/leak.txt');
    expect(output.content).toMatch(/Skipped 2 links pointing out of the project: .*\/away/);
  });

  it('search_files follows links that stay inside the project', async () => {
    const output = await call(tools.search, { pattern: 'inside needle' });
    expect(output.content).toContain('alias.txt:1:inside needle');
    expect(output.content).toContain('shortcut/real.txt:1:inside needle');
    // The folder reached twice (src/deep and the link shortcut to it) is searched once.
    expect(output.content.match(/real\.txt:1:/g)).toHaveLength(1);
  });

  it('list_files does not list links out of the project as entries, names them as skipped, and lists links inside', async () => {
    const output = await call(tools.list, { depth: 5 });
    const entries = output.content.split('\n').slice(1, -1);
    expect(entries).not.toContain('src/leak.txt');
    expect(entries.some((line) => line.includes('away'))).toBe(false);
    expect(entries).toEqual(
      expect.arrayContaining(['alias.txt', 'shortcut/', 'shortcut/real.txt', 'src/deep/', 'src/loop/']),
    );
    expect(output.content.split('\n').at(-1)).toMatch(
      /Skipped \d+ links? pointing out of the project: .*src\/leak\.txt/,
    );
  });

  it('read_file refuses a link out, at any depth, and reads a link inside', async () => {
    expect((await call(tools.read, { path: 'src/leak.txt' })).content).toContain('PATH_NOT_ALLOWED');
    expect((await call(tools.read, { path: 'src/deep/away/more.txt' })).content).toContain(
      'PATH_NOT_ALLOWED',
    );
    expect((await call(tools.read, { path: 'shortcut/real.txt' })).content).toContain('inside needle');
  });

  it('list_files and search_files refuse a starting folder that is a link out', async () => {
    expect((await call(tools.list, { path: 'src/deep/away' })).content).toContain('PATH_NOT_ALLOWED');
    expect((await call(tools.search, { pattern: 'x', path: 'src/deep/away' })).content).toContain(
      'PATH_NOT_ALLOWED',
    );
  });
});
