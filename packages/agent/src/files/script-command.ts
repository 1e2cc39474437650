import type { FrontMatterPath } from './front-matter.ts';
import type { FrontMatterReader } from './front-matter-reader.ts';

/**
 * How to run one script (spec §5.6): a tool's `execution` or one plugin hook.
 *
 * @example
 * const command: ScriptCommand = { command: './run.sh', args: ['--quiet'], timeoutMs: 5000 };
 */
export interface ScriptCommand {
  /** An executable: relative paths resolve from the component folder; bare names use `PATH`. */
  command: string;
  args: readonly string[];
  timeoutMs?: number;
  /** Relative to the component folder; the agent's working directory when absent. */
  workingDirectory?: string;
}

const COMMAND_FIELDS: ReadonlySet<string> = new Set(['command', 'args', 'timeout_ms', 'working_directory']);

/** Reads a `{command, args, timeout_ms, working_directory}` mapping at `path`. */
export function readScriptCommand(
  reader: FrontMatterReader,
  path: FrontMatterPath,
  options: { required: boolean },
): ScriptCommand | undefined {
  const mapping = reader.mapping(path, { required: options.required });
  if (mapping === undefined) return undefined;
  reader.warnUnknownKeys(path, COMMAND_FIELDS);
  const command = reader.string([...path, 'command'], { required: true });
  if (command?.includes('\0') === true)
    reader.fail([...path, 'command'], 'the command contains a NUL character');
  const args = reader.stringList([...path, 'args']) ?? [];
  const timeoutMs = reader.timeout([...path, 'timeout_ms']);
  const workingDirectory = reader.string([...path, 'working_directory'], { nonEmpty: true });
  if (command === undefined || command.trim() === '') {
    if (command !== undefined) reader.fail([...path, 'command'], `field \`command\` is empty`);
    return undefined;
  }
  const result: ScriptCommand = { command, args };
  if (timeoutMs !== undefined) result.timeoutMs = timeoutMs;
  if (workingDirectory !== undefined) result.workingDirectory = workingDirectory;
  return result;
}
