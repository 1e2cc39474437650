/**
 * Where a server command writes and what environment it sees; the `youyou` CLI's `CliIo` fits.
 *
 * @example
 * await serveCommand(['--port', '0'], { stdout: console.log, stderr: console.error, environment: process.env, cwd: process.cwd() });
 */
export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
  environment: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * Exit codes, the same as the `youyou` CLI's: 0 ok, 1 failed, 2 usage error.
 *
 * @example
 * process.exitCode = (await serveCommand(argv)) === COMMAND_EXIT.usage ? 2 : 0;
 */
export const COMMAND_EXIT = Object.freeze({ ok: 0, failed: 1, usage: 2 });

/**
 * @example
 * await migrateCommand([], processCommandIo());
 */
export function processCommandIo(): CommandIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    environment: process.env,
    cwd: process.cwd(),
  };
}

/**
 * A mistake on the command line (exit code 2).
 *
 * @example
 * throw new CommandUsageError('--port wants a number');
 */
export class CommandUsageError extends Error {
  override readonly name = 'CommandUsageError';
}
