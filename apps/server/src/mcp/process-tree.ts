import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** pid → parent pid of every process: `/proc` on Linux, `ps` elsewhere. */
async function parentsOfAll(): Promise<Map<number, number>> {
  const parents = new Map<number, number>();
  try {
    const entries = await readdir('/proc');
    await Promise.all(
      entries
        .filter((entry) => /^\d+$/.test(entry))
        .map(async (entry) => {
          const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
          // The command name is in parentheses and may hold spaces: the fields follow the last ')'.
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          const parent = Number(fields[1]);
          if (Number.isInteger(parent)) parents.set(Number(entry), parent);
        }),
    );
    if (parents.size > 0) return parents;
  } catch {
    // No /proc: ask ps.
  }
  const { stdout } = await run('ps', ['-A', '-o', 'pid=,ppid=']);
  for (const line of stdout.split('\n')) {
    const [pid, parent] = line.trim().split(/\s+/).map(Number);
    if (pid !== undefined && parent !== undefined && Number.isInteger(pid)) parents.set(pid, parent);
  }
  return parents;
}

/**
 * Every process below `pid` (children, their children …), found before anything is signalled: a
 * process whose parent dies is re-parented and could no longer be found.
 *
 * @example
 * const tree = await descendantsOf(child.pid); // [wrapper's child, its child, …]
 */
export async function descendantsOf(pid: number): Promise<number[]> {
  const parents = await parentsOfAll().catch(() => new Map<number, number>());
  const children = new Map<number, number[]>();
  for (const [child, parent] of parents) {
    const list = children.get(parent) ?? [];
    list.push(child);
    children.set(parent, list);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    for (const child of children.get(next) ?? []) {
      if (found.includes(child)) continue;
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function signalAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone already.
    }
  }
}
