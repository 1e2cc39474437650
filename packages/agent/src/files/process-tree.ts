import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

/**
 * Signals a script and everything it started. On POSIX the script leads its own process group
 * (it was spawned `detached`), so one `kill(-pid)` reaches grandchildren too. On Windows,
 * `taskkill /T /F` ends the tree. A process that already exited is not an error.
 *
 * @example
 * const child = spawn('./slow.sh', [], { detached: true });
 * signalProcessTree(child, 'SIGKILL');
 */
export function signalProcessTree(
  child: ChildProcess,
  signal: NodeJS.Signals,
  platform: NodeJS.Platform = process.platform,
): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (platform === 'win32') {
    // taskkill has no graceful tree signal that console scripts honour; /F is the only reliable end.
    const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], {
      stdio: 'ignore',
      windowsHide: true,
    });
    killer.on('error', () => child.kill(signal));
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone (ESRCH) or was never created; fall back to the child alone.
    try {
      child.kill(signal);
    } catch {
      // Already exited.
    }
  }
}
