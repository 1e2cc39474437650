import { watch } from 'node:fs';
import { sep } from 'node:path';
import type { ServerLogger } from '../logging/index.ts';
import type { Installed } from './installed-extension.ts';

/**
 * Watches an installed extension's folder: an edit of its declarative assets calls `reload` once
 * the writes settle for `delayMs`; an edit inside its agent-framework folder (code, which loads
 * only at start) marks it as waiting for a restart. A folder that cannot be watched is logged.
 */
export function watchExtension(
  entry: Installed,
  options: { directory: string; delayMs: number; reload: () => void; logger: ServerLogger },
): void {
  const { directory, logger } = options;
  try {
    entry.watcher = watch(directory, { recursive: true }, (_event, file) => {
      const changed = typeof file === 'string' ? file.split(sep).join('/') : '';
      const agentFolder = entry.loaded?.agentDirectory;
      if (
        agentFolder !== undefined &&
        changed !== '' &&
        `${directory}/${changed}`.startsWith(`${agentFolder}/`)
      ) {
        // Code loads only at start: an edit there waits for a restart.
        entry.pendingRestart = true;
        return;
      }
      clearTimeout(entry.timer);
      entry.timer = setTimeout(options.reload, options.delayMs);
      entry.timer.unref();
    });
    entry.watcher.on('error', (error) =>
      logger.warn({ err: error, extension: entry.record.id }, 'watching an extension failed'),
    );
  } catch (error) {
    logger.warn(
      { err: error, extension: entry.record.id },
      'an extension folder cannot be watched; edits apply after a restart',
    );
  }
}

/** Stops watching and drops a pending reload. */
export function unwatchExtension(entry: Installed): void {
  entry.watcher?.close();
  clearTimeout(entry.timer);
}
