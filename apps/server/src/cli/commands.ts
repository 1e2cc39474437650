import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { migrateDown, migrateToLatest, openDatabase, isPostgresUrl } from '../database/index.ts';
import {
  resolveServerOptions,
  SERVER_VERSION,
  startServer,
  type RunningServer,
  type ServerOptions,
} from '../server/index.ts';
import { COMMAND_EXIT, CommandUsageError, processCommandIo, type CommandIo } from './command-io.ts';

/**
 * @example
 * io.stdout(SERVE_HELP);
 */
export const SERVE_HELP = `youyou serve: the workbench (HTTP + SSE + web UI on one port)

Usage: youyou serve [--host 127.0.0.1] [--port 4280] [--data-dir <dir>] [--database-url postgres://…] [--open]

Options:
  --host <address>         where to listen (default 127.0.0.1; anything else prints a warning)
  --port <n>               default 4280; 0 picks a free port
  --data-dir <dir>         database, uploads, token (default $YOUYOU_HOME/workbench or ~/.youyou/workbench)
  --database-url <url>     PostgreSQL instead of SQLite (or $YOUYOU_DATABASE_URL)
  --workspace-root <dir>   project directories must be inside (repeatable; default your home directory)
  --allowed-host <name>    a DNS name the server answers to besides localhost and IP addresses (repeatable)
  --log-level <level>      debug, info (default), warn, error, silent
  --open                   open the login URL in a browser
`;

/**
 * @example
 * io.stdout(MIGRATE_HELP);
 */
export const MIGRATE_HELP = `youyou migrate: apply (or roll back) database migrations

Usage: youyou migrate [--data-dir <dir>] [--database-url postgres://…] [--down]
`;

/** Runs a parser, turning its complaints into usage errors. */
function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new CommandUsageError(error instanceof Error ? error.message : String(error));
  }
}

function reportFailure(error: unknown, io: CommandIo): number {
  if (error instanceof CommandUsageError) {
    io.stderr(`youyou: ${error.message}\n`);
    return COMMAND_EXIT.usage;
  }
  io.stderr(`youyou: ${error instanceof Error ? error.message : String(error)}\n`);
  return COMMAND_EXIT.failed;
}

function openInBrowser(url: string): void {
  const [command, ...commandArguments] =
    process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '', url]
        : ['xdg-open', url];
  try {
    const child = spawn(command as string, commandArguments, { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No browser to open: the URL is printed anyway.
  }
}

/**
 * `youyou serve` options from a command line.
 *
 * @example
 * const { options } = serveOptionsOf(['--port', '0'], processCommandIo());
 */
export function serveOptionsOf(
  argv: readonly string[],
  io: CommandIo,
): { options: ServerOptions; open: boolean; help: boolean } {
  const { values } = parsed(() =>
    parseArgs({
      args: [...argv],
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'database-url': { type: 'string' },
        'workspace-root': { type: 'string', multiple: true },
        'allowed-host': { type: 'string', multiple: true },
        'log-level': { type: 'string' },
        open: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  const port = values.port;
  if (port !== undefined && !/^\d{1,5}$/.test(port))
    throw new CommandUsageError(`--port wants a number, not ${port}`);
  const databaseUrl = values['database-url'] ?? io.environment['YOUYOU_DATABASE_URL'];
  if (databaseUrl !== undefined && databaseUrl !== '' && !isPostgresUrl(databaseUrl)) {
    throw new CommandUsageError(
      '--database-url wants a postgres:// URL (SQLite is the default and needs none)',
    );
  }
  const dataDirectory = values['data-dir'];
  const workspaceRoots = values['workspace-root']?.map((root) => resolve(io.cwd, root));
  const allowedHosts = values['allowed-host'];
  const logLevel = values['log-level'];
  const options: ServerOptions = {
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(port === undefined ? {} : { port: Number(port) }),
    ...(dataDirectory === undefined ? {} : { dataDirectory: resolve(io.cwd, dataDirectory) }),
    ...(databaseUrl === undefined || databaseUrl === '' ? {} : { databaseUrl }),
    ...(workspaceRoots === undefined ? {} : { workspaceRoots }),
    ...(allowedHosts === undefined ? {} : { allowedHosts }),
    ...(logLevel === undefined ? {} : { logLevel }),
    ...(io.environment['YOUYOU_HOME'] === undefined
      ? {}
      : { home: resolve(io.cwd, io.environment['YOUYOU_HOME']) }),
  };
  return { options, open: values.open === true, help: values.help === true };
}

/**
 * `youyou serve`: starts the server, prints the login URL, and serves until SIGINT/SIGTERM (or
 * `signal`). Logs go to stderr as JSON lines (pretty in a terminal).
 *
 * @example
 * process.exitCode = await serveCommand(process.argv.slice(2));
 */
export async function serveCommand(
  argv: readonly string[],
  io: CommandIo = processCommandIo(),
  control: { signal?: AbortSignal; onStarted?: (server: RunningServer) => void } = {},
): Promise<number> {
  let server: RunningServer;
  try {
    const { options, open, help } = serveOptionsOf(argv, io);
    if (help) {
      io.stdout(SERVE_HELP);
      return COMMAND_EXIT.ok;
    }
    server = await startServer({ ...options, logDestination: { write: (line: string) => io.stderr(line) } });
    io.stdout(
      `YouYou Workbench ${SERVER_VERSION} is listening on ${server.url}\nSign in with:\n  ${server.loginUrl}\n`,
    );
    if (open) openInBrowser(server.loginUrl);
    control.onStarted?.(server);
  } catch (error) {
    return reportFailure(error, io);
  }
  await new Promise<void>((done) => {
    const stop = (): void => done();
    if (control.signal?.aborted === true) return done();
    control.signal?.addEventListener('abort', stop, { once: true });
    if (control.signal === undefined) {
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    }
  });
  await server.close();
  return COMMAND_EXIT.ok;
}

/**
 * `youyou migrate`: applies pending migrations (or rolls back the newest with `--down`).
 *
 * @example
 * process.exitCode = await migrateCommand(['--database-url', 'postgres://localhost/youyou']);
 */
export async function migrateCommand(
  argv: readonly string[],
  io: CommandIo = processCommandIo(),
): Promise<number> {
  try {
    const { values } = parsed(() =>
      parseArgs({
        args: [...argv],
        options: {
          'data-dir': { type: 'string' },
          'database-url': { type: 'string' },
          down: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
      }),
    );
    if (values.help === true) {
      io.stdout(MIGRATE_HELP);
      return COMMAND_EXIT.ok;
    }
    const dataDirectory = values['data-dir'] === undefined ? undefined : resolve(io.cwd, values['data-dir']);
    const databaseUrl = values['database-url'] ?? io.environment['YOUYOU_DATABASE_URL'];
    const resolved = resolveServerOptions({
      ...(dataDirectory === undefined ? {} : { dataDirectory }),
      ...(io.environment['YOUYOU_HOME'] === undefined
        ? {}
        : { home: resolve(io.cwd, io.environment['YOUYOU_HOME']) }),
    });
    const database = openDatabase(
      isPostgresUrl(databaseUrl)
        ? { databaseUrl }
        : { sqliteFile: resolve(resolved.dataDirectory, 'youyou.db') },
    );
    try {
      const report = values.down === true ? await migrateDown(database) : await migrateToLatest(database);
      const verb = values.down === true ? 'rolled back' : 'applied';
      io.stdout(
        report.applied.length === 0
          ? `Nothing to do; ${report.current.length} migration(s) applied (${database.dialect}).\n`
          : `${verb}: ${report.applied.join(', ')} (${database.dialect})\n`,
      );
    } finally {
      await database.close();
    }
    return COMMAND_EXIT.ok;
  } catch (error) {
    return reportFailure(error, io);
  }
}
