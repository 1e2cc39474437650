import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface TempWorkspace {
  /** A fresh YouYou home: never the real `~/.youyou`. */
  home: string;
  /** A fresh project directory. */
  cwd: string;
  remove(): Promise<void>;
}

/**
 * A temporary home and project directory for a test; `remove()` deletes both.
 *
 * @example
 * const workspace = await createTempWorkspace();
 * const agent = await new AgentBuilder({ cwd: workspace.cwd, home: workspace.home }).addProvider(p).build();
 * await workspace.remove();
 */
export async function createTempWorkspace(prefix = 'youyou-test-'): Promise<TempWorkspace> {
  const root = await mkdtemp(path.join(os.tmpdir(), prefix));
  const home = path.join(root, 'home');
  const cwd = path.join(root, 'project');
  await mkdir(home);
  await mkdir(cwd);
  return { home, cwd, remove: () => rm(root, { recursive: true, force: true }) };
}
