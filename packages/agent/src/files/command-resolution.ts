import { posix, win32 } from 'node:path';

/**
 * What `resolveScriptCommand` needs; the file-system check is passed in so the function is pure.
 *
 * @example
 * const input: CommandResolutionInput = { command: './run.sh', args: [], componentDirectory: dir,
 *   platform: process.platform, exists: existsSync };
 */
export interface CommandResolutionInput {
  command: string;
  args: readonly string[];
  /** The component folder: relative `command`/`args` resolve from here (spec §5.6). */
  componentDirectory: string;
  platform: NodeJS.Platform;
  /** `%ComSpec%` on Windows; `cmd.exe` when absent. */
  comSpec?: string | undefined;
  /** True when `path` names an existing entry; used for bare names like `run.sh` or `script.py`. */
  exists: (path: string) => boolean;
}

/**
 * The executable and argument vector to hand to `spawn` without a shell.
 *
 * @example
 * const { file, args, windowsVerbatimArguments } = resolveScriptCommand(input);
 * spawn(file, args, { windowsVerbatimArguments });
 */
export interface ResolvedCommand {
  file: string;
  args: string[];
  /** Set for `.cmd`/`.bat`: the command line is already quoted for cmd.exe. */
  windowsVerbatimArguments: boolean;
}

/** Characters cmd.exe treats specially; each is escaped with `^`. */
const CMD_META_CHARACTERS = /([()\][%!^"`<>&|;, *?])/g;

/**
 * Resolves a script command the way the script protocol (spec §5.6) describes:
 * - `command`: absolute paths stay; paths with a separator or a leading `.` resolve from the
 *   component folder; a bare name resolves to a file of that name in the component folder when one
 *   exists, else it is left for `PATH` lookup (`python3`, `node`).
 * - `args`: an argument starting with `./` or `../` resolves from the component folder; any other
 *   argument that is not an option (`-x`) and names an existing entry of the component folder
 *   resolves too (`[script.py]`); everything else passes through unchanged.
 * - On Windows, `.cmd`/`.bat` files run through `cmd.exe /d /s /c "…"` with every argument quoted
 *   and escaped for cmd.exe; other files run directly.
 *
 * @example
 * resolveScriptCommand({
 *   command: './run.cmd', args: ['a b'], componentDirectory: 'C:\\tools\\greet',
 *   platform: 'win32', exists: () => false,
 * });
 * // → { file: 'cmd.exe', args: ['/d', '/s', '/c', '"C:\\tools\\greet\\run.cmd ^^^"a^^^ b^^^""'],
 * //     windowsVerbatimArguments: true }
 */
export function resolveScriptCommand(input: CommandResolutionInput): ResolvedCommand {
  const windows = input.platform === 'win32';
  const path = windows ? win32 : posix;
  const file = resolveExecutable(input, path, windows);
  const args = input.args.map((argument) => resolveArgument(argument, input, path, windows));
  if (windows && /\.(cmd|bat)$/i.test(file)) {
    const commandLine = [
      escapeForCmd(path.normalize(file)),
      ...args.map((argument) => quoteForCmd(argument, true)),
    ].join(' ');
    return {
      file: input.comSpec !== undefined && input.comSpec !== '' ? input.comSpec : 'cmd.exe',
      args: ['/d', '/s', '/c', `"${commandLine}"`],
      windowsVerbatimArguments: true,
    };
  }
  return { file, args, windowsVerbatimArguments: false };
}

function resolveExecutable(input: CommandResolutionInput, path: typeof posix, windows: boolean): string {
  const { command, componentDirectory } = input;
  if (path.isAbsolute(command)) return command;
  if (hasSeparator(command, windows) || command.startsWith('.'))
    return path.resolve(componentDirectory, command);
  const local = path.join(componentDirectory, command);
  return input.exists(local) ? local : command;
}

function resolveArgument(
  argument: string,
  input: CommandResolutionInput,
  path: typeof posix,
  windows: boolean,
): string {
  if (isExplicitlyRelative(argument, windows)) return path.resolve(input.componentDirectory, argument);
  if (argument === '' || argument.startsWith('-') || path.isAbsolute(argument)) return argument;
  const local = path.join(input.componentDirectory, argument);
  return input.exists(local) ? local : argument;
}

function hasSeparator(text: string, windows: boolean): boolean {
  return text.includes('/') || (windows && text.includes('\\'));
}

function isExplicitlyRelative(text: string, windows: boolean): boolean {
  if (text.startsWith('./') || text.startsWith('../')) return true;
  return windows && (text.startsWith('.\\') || text.startsWith('..\\'));
}

/** Escapes cmd.exe metacharacters of an unquoted token (the batch file path). */
export function escapeForCmd(text: string): string {
  return text.replace(CMD_META_CHARACTERS, '^$1');
}

/**
 * Quotes one argument for the MSVCRT command-line parser, then escapes it for cmd.exe. Batch files
 * re-parse their arguments, so their metacharacters are escaped twice.
 *
 * @example
 * quoteForCmd('a b', false); // '^"a^ b^"'
 */
export function quoteForCmd(argument: string, batchFile: boolean): string {
  const quoted = `"${argument
    .replace(/(\\*)"/g, (_match, slashes: string) => `${slashes}${slashes}\\"`)
    .replace(/(\\*)$/, (_match, slashes: string) => `${slashes}${slashes}`)}"`;
  const escaped = escapeForCmd(quoted);
  return batchFile ? escapeForCmd(escaped) : escaped;
}
