import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temporary home and project directory; never the real ~/.youyou. */
export interface TempWorld {
  root: string;
  home: string;
  cwd: string;
  projectLayer: string;
  cleanup(): Promise<void>;
}

export async function createTempWorld(): Promise<TempWorld> {
  const root = await mkdtemp(join(tmpdir(), 'youyou-files-'));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  await mkdir(home, { recursive: true });
  await mkdir(cwd, { recursive: true });
  return {
    root,
    home,
    cwd,
    projectLayer: join(cwd, '.youyou'),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export type Kind = 'tool' | 'skill' | 'plugin';
const FOLDERS: Record<Kind, string> = { tool: 'tools', skill: 'skills', plugin: 'plugins' };

/** Writes a component folder; files whose text starts with `#!` become executable. */
export async function writeComponent(
  layerDirectory: string,
  kind: Kind,
  name: string,
  entry: string,
  files: Record<string, string | Buffer> = {},
  entryFile = 'index.md',
): Promise<string> {
  const directory = join(layerDirectory, FOLDERS[kind], name);
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, entryFile), entry);
  for (const [path, content] of Object.entries(files)) {
    const target = join(directory, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
    if (content.toString().startsWith('#!')) await chmod(target, 0o755);
  }
  return directory;
}

/** A tool index.md running `command` with the given parameters block. */
export function toolEntry(
  name: string,
  options: { command: string; args?: string[]; extra?: string; timeoutMs?: number; description?: string },
): string {
  const args = options.args === undefined ? '' : `  args: ${JSON.stringify(options.args)}\n`;
  const timeout = options.timeoutMs === undefined ? '' : `  timeout_ms: ${String(options.timeoutMs)}\n`;
  return `---\nversion: 1\nname: ${name}\n${options.extra ?? ''}execution:\n  command: ${JSON.stringify(options.command)}\n${args}${timeout}---\n${options.description ?? `The ${name} tool.`}\n`;
}

/** A plugin index.md with one script per hook. */
export function pluginEntry(id: string, hooks: Record<string, string>, extra = ''): string {
  const hookLines = Object.entries(hooks)
    .map(([hook, command]) => `  ${hook}:\n    command: ${JSON.stringify(command)}\n`)
    .join('');
  return `---\nversion: 1\nid: ${id}\ndisplay_name: ${id} plugin\n${extra}hooks:\n${hookLines}---\nThe ${id} plugin.\n`;
}

/** True while `pid` is a live process (a zombie counts as gone). */
export async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = await readFile(`/proc/${String(pid)}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Waits until `check` is true, polling; fails after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not met in time');
}

export const controller = (): AbortController => new AbortController();
