import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

export const LOCK_FILE = 'server.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims a data directory for one SQLite server: a second `youyou serve` on the same directory
 * would write the same database file. A lock left by a process that died is taken over.
 *
 * @example
 * const release = await lockDataDirectory(dataDir);
 * // … serve …
 * await release();
 */
export async function lockDataDirectory(directory: string): Promise<() => Promise<void>> {
  const file = join(directory, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return async () => {
        const owner = await readFile(file, 'utf8').catch(() => '');
        if (Number.parseInt(owner, 10) === process.pid) await rm(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new Error(
          `Another YouYou server (pid ${pid}) uses ${directory}. Stop it, or give this one its own --data-dir.`,
          { cause: error },
        );
      }
      // The owner is gone (or it is this very process after a restart in tests): take over.
      await rm(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${directory}.`);
}
