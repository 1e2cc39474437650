import { isAgentError } from '@youyou/agent';
import { parseCliArguments } from './cli-arguments.ts';
import { processIo, UsageError, type CliIo } from './cli-io.ts';
import { runComponents } from './components-command.ts';
import { runDoctor } from './doctor-command.ts';
import { EXIT_CODES, type ExitCode } from './exit-codes.ts';

/** The usage text `youyou --help` prints. @example io.stdout(HELP) */
export const HELP = `youyou: the YouYou command

Usage:
  youyou doctor                                   what loaded, what was skipped and why, the effective config
  youyou components list [--kind tool|skill|plugin]
  youyou components add <kind> <name> [--project] [--from <folder>]
  youyou components remove <kind> <name> [--global|--project]
  youyou components enable <plugin-id> [--global]
  youyou components disable <plugin-id> [--global]
  youyou serve [--host] [--port] [--data-dir] [--database-url] [--open]   the workbench (see youyou serve --help)
  youyou migrate [--data-dir] [--database-url] [--down]                    apply the workbench's database migrations
  youyou backup [--data-dir] [--output <file>]                              the database, uploads and artifacts in one file
  youyou restore <file> [--data-dir] [--force]                              put a backup back (server stopped)
  youyou version [--json]                         the CLI, server and Node versions (--json: the version manifest)

Options:
  --json            machine-readable output on stdout (errors too)
  --cwd <dir>       the project directory (default: the current directory)
  --home <dir>      the YouYou home (default: $YOUYOU_HOME or ~/.youyou)
  --global          components add/remove: the home layer (add's default); enable/disable: every project
  --project         components add/remove: {cwd}/.youyou
  -h, --help        this help
  -v, --version     the version

Exit codes: 0 ok, 1 failed, 2 usage error, 3 doctor found skipped folders.
`;

const VERSION = '0.1.0';

/**
 * Runs one `youyou` command line and returns its exit code. Never throws.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2));
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<ExitCode> {
  const [first, ...rest] = argv;
  if (
    first === 'serve' ||
    first === 'migrate' ||
    first === 'version' ||
    first === 'backup' ||
    first === 'restore'
  )
    return runServerCommand(first, rest, io);
  let json = argv.includes('--json');
  try {
    const options = parseCliArguments(argv, io);
    json = options.json;
    if (options.version) {
      io.stdout(`${VERSION}\n`);
      return EXIT_CODES.ok;
    }
    const [command] = options.positionals;
    if (options.help || command === 'help') {
      io.stdout(HELP);
      return EXIT_CODES.ok;
    }
    switch (command) {
      case 'doctor':
        if (options.positionals.length > 1)
          throw new UsageError(`unexpected argument: ${options.positionals[1] ?? ''}`);
        return await runDoctor(options, io);
      case 'components':
        return await runComponents(options, io);
      case undefined:
        io.stderr(HELP);
        return EXIT_CODES.usage;
      default:
        throw new UsageError(`unknown command: ${command}`);
    }
  } catch (error) {
    return reportError(error, json, io);
  }
}

function reportError(error: unknown, json: boolean, io: CliIo): ExitCode {
  if (error instanceof UsageError) {
    if (json) io.stdout(`${JSON.stringify({ error: { code: 'USAGE', message: error.message } }, null, 2)}\n`);
    else io.stderr(`youyou: ${error.message}\nRun \`youyou --help\` for usage.\n`);
    return EXIT_CODES.usage;
  }
  const payload = isAgentError(error)
    ? error.toJSON()
    : { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
  if (json) io.stdout(`${JSON.stringify({ error: payload }, null, 2)}\n`);
  else io.stderr(`youyou: ${payload.code}: ${payload.message}\n`);
  return EXIT_CODES.failed;
}

/** The workbench commands, loaded only when asked for (doctor and components stay quick). */
async function runServerCommand(
  command: 'serve' | 'migrate' | 'version' | 'backup' | 'restore',
  rest: readonly string[],
  io: CliIo,
): Promise<ExitCode> {
  if (command === 'version') {
    // The light entry: version and its manifest need neither the server nor its dependencies.
    const { versionCommand } = await import('@youyou/server/version');
    if (!rest.includes('--json')) io.stdout(`youyou ${VERSION}\n`);
    return versionCommand(io, rest) === 0 ? EXIT_CODES.ok : EXIT_CODES.failed;
  }
  const server = await import('@youyou/server');
  const code =
    command === 'serve'
      ? await server.serveCommand(rest, io)
      : command === 'migrate'
        ? await server.migrateCommand(rest, io)
        : command === 'backup'
          ? await server.backupCommand(rest, io)
          : await server.restoreCommand(rest, io);
  return code === 0 ? EXIT_CODES.ok : code === 2 ? EXIT_CODES.usage : EXIT_CODES.failed;
}
