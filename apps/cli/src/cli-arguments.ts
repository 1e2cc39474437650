import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveYouyouHome } from '@youyou/agent/files';
import type { CliIo } from './cli-io.ts';
import { UsageError } from './cli-io.ts';

/** The parsed command line. */
export interface CliArguments {
  positionals: string[];
  json: boolean;
  help: boolean;
  version: boolean;
  cwd: string;
  home: string;
  global: boolean;
  project: boolean;
  from?: string;
  kind?: string;
}

/**
 * Parses `youyou` arguments. Unknown options are a `UsageError`. `--cwd` defaults to the current
 * directory, `--home` to `YOUYOU_HOME` or `~/.youyou`.
 *
 * @example
 * parseCliArguments(['components', 'list', '--json'], io).positionals; // ['components', 'list']
 */
export function parseCliArguments(argv: readonly string[], io: CliIo): CliArguments {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false },
        cwd: { type: 'string' },
        home: { type: 'string' },
        global: { type: 'boolean', default: false },
        project: { type: 'boolean', default: false },
        from: { type: 'string' },
        kind: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.global && values.project) throw new UsageError('--global and --project cannot be used together');
  const result: CliArguments = {
    positionals,
    json: values.json,
    help: values.help,
    version: values.version,
    cwd: resolve(io.cwd, values.cwd ?? '.'),
    home: values.home === undefined ? resolveYouyouHome(io.environment) : resolve(io.cwd, values.home),
    global: values.global,
    project: values.project,
  };
  if (values.from !== undefined) result.from = resolve(io.cwd, values.from);
  if (values.kind !== undefined) result.kind = values.kind;
  return result;
}
