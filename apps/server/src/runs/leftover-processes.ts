import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import type { ServerLogger } from '../logging/index.ts';

/**
 * The environment variable every process this server starts inherits (tool scripts, plugin hooks,
 * MCP servers and what they start): `<server pid>:<server start time>:<data directory>`. A
 * process carrying it whose server is gone is a leftover of a server that was killed (`kill -9`,
 * a crash, the OOM killer): it would otherwise run on after its run was marked interrupted.
 */
export const OWNER_VARIABLE = 'YOUYOU_WORKBENCH_OWNER';

/** Fields of `/proc/<pid>/stat` after the command name: state is field 3 (index 0). */
const PROCESS_GROUP_INDEX = 2; // field 5
const START_TIME_INDEX = 19; // field 22, in clock ticks since boot

async function statFields(pid: number): Promise<string[] | undefined> {
  try {
    const text = await readFile(`/proc/${String(pid)}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces or parentheses itself.
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** A process's start time, which tells a live process from a later one that reused its pid. */
async function startTime(pid: number): Promise<string | undefined> {
  return (await statFields(pid))?.[START_TIME_INDEX];
}

/**
 * Marks this server as the owner of every process it starts from now on (see `OWNER_VARIABLE`).
 * Linux only: elsewhere there is no `/proc` to find leftovers with, and nothing is set.
 *
 * @example
 * await markProcessOwnership(dataDirectory);
 */
export async function markProcessOwnership(dataDirectory: string): Promise<void> {
  if (process.platform !== 'linux') return;
  const started = await startTime(process.pid);
  if (started === undefined) return;
  process.env[OWNER_VARIABLE] = `${String(process.pid)}:${started}:${dataDirectory}`;
}

function ownerOf(environ: string): { pid: number; started: string; dataDirectory: string } | undefined {
  const prefix = `${OWNER_VARIABLE}=`;
  const entry = environ.split('\u0000').find((variable) => variable.startsWith(prefix));
  if (entry === undefined) return undefined;
  const match = /^(\d+):(\d+):(.*)$/s.exec(entry.slice(prefix.length));
  if (match === null) return undefined;
  return { pid: Number(match[1]), started: match[2] as string, dataDirectory: match[3] as string };
}

/**
 * Ends the processes a killed server of this data directory left running: every process whose
 * `OWNER_VARIABLE` names a server that no longer runs (its pid is gone, or now belongs to a
 * process that started later). A leftover that leads its own process group (tools are started
 * that way) is ended with its whole group, grandchildren included. Returns how many processes
 * were signalled. Linux only; elsewhere it does nothing.
 *
 * @example
 * const ended = await endLeftoverProcesses({ dataDirectory, logger });
 */
export async function endLeftoverProcesses(options: {
  dataDirectory: string;
  logger?: ServerLogger;
}): Promise<number> {
  if (process.platform !== 'linux') return 0;
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return 0;
  }
  const ownGroup = (await statFields(process.pid))?.[PROCESS_GROUP_INDEX];
  const ownerAlive = new Map<string, boolean>();
  const ended: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let environ: string;
    try {
      // Read synchronously: this runs once, before the server listens, over every process of the
      // machine. A small read from /proc takes microseconds, and an asynchronous one costs a trip
      // through the thread pool each (about 20 ms for 100 processes, awaited one by one).
      environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
    } catch {
      continue; // Gone, or another user's.
    }
    if (!environ.includes(OWNER_VARIABLE)) continue;
    const owner = ownerOf(environ);
    if (owner === undefined || owner.dataDirectory !== options.dataDirectory) continue;
    const key = `${String(owner.pid)}:${owner.started}`;
    let alive = ownerAlive.get(key);
    if (alive === undefined) {
      alive = owner.pid === process.pid || (await startTime(owner.pid)) === owner.started;
      ownerAlive.set(key, alive);
    }
    if (alive) continue;
    const group = (await statFields(pid))?.[PROCESS_GROUP_INDEX];
    try {
      // A group leader is a tool started in a group of its own: end the group. Anything else is
      // ended alone, so a group shared with something unrelated (a shell) is never signalled.
      if (group === entry && group !== ownGroup) process.kill(-pid, 'SIGKILL');
      else process.kill(pid, 'SIGKILL');
      ended.push(pid);
    } catch {
      // It exited meanwhile.
    }
  }
  if (ended.length > 0) {
    options.logger?.warn({ pids: ended }, 'ended processes left running by a server that was killed');
  }
  return ended.length;
}
