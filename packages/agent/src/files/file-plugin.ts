import type { HookHandler, HookName, HookPayload, HookResult } from '../hooks/index.ts';
import type { HookTap, Plugin } from '../plugins/index.ts';
import { DEFAULT_AGENT_CONFIG } from '../config/index.ts';
import type { FileChannelLogger } from './file-logger.ts';
import { SILENT_LOGGER } from './file-logger.ts';
import { parseHookOutput, toWirePayload } from './hook-wire.ts';
import type { FilePluginDefinition } from './plugin-entry.ts';
import type { ScriptCommand } from './script-command.ts';
import { runScript } from './script-runner.ts';

/** Stderr carried in a hook warning. */
const STDERR_IN_WARNING_BYTES = 4096;

/**
 * What `createFilePlugin` binds.
 *
 * @example
 * const options: FilePluginOptions = { definition, componentDirectory: dir, cwd: process.cwd(), home };
 */
export interface FilePluginOptions {
  definition: FilePluginDefinition;
  componentDirectory: string;
  /** The agent's working directory: hook scripts run there unless `working_directory` says otherwise. */
  cwd: string;
  home: string;
  /** For hooks without `timeout_ms`: config.yaml `tool_timeout_ms`, else 120000. */
  defaultTimeoutMs?: number | undefined;
  logger?: FileChannelLogger;
}

/**
 * Turns a plugin `index.md` into a `Plugin` whose `apply` taps one script per declared hook
 * (spec §4.6, §5.5). Each hook run starts the script, writes the snake_case payload (with
 * `plugin_config`) to stdin and reads the result from stdout. A timeout, a non-zero exit or
 * output that is not a valid result continues the hook and logs a warning carrying stderr.
 * File plugins have no `initialize`/`shutdown`.
 *
 * @example
 * const plugin = createFilePlugin({ definition, componentDirectory: dir, cwd: process.cwd(), home });
 * builder.addPlugin(plugin);
 */
export function createFilePlugin(options: FilePluginOptions): Plugin {
  const { definition } = options;
  const logger = options.logger ?? SILENT_LOGGER;
  return {
    id: definition.id,
    displayName: definition.displayName,
    description: definition.description,
    apply(hooks: HookTap): void {
      for (const [hook, command] of Object.entries(definition.hooks) as [HookName, ScriptCommand][]) {
        tapScript(hooks, hook, command, options, logger);
      }
    },
  };
}

function tapScript<H extends HookName>(
  hooks: HookTap,
  hook: H,
  command: ScriptCommand,
  options: FilePluginOptions,
  logger: FileChannelLogger,
): void {
  const handler: HookHandler<H> = (payload) => runHookScript(hook, command, payload, options, logger);
  hooks.tap(hook, handler);
}

/**
 * Runs one hook script and maps its result. Exposed for tests and for callers that run hooks
 * outside an agent.
 *
 * @example
 * const result = await runHookScript('SessionStart', { command: './start.sh', args: [] },
 *   { hook: 'SessionStart', sessionId: 's1', pluginConfig: {} }, options, logger);
 */
export async function runHookScript<H extends HookName>(
  hook: H,
  command: ScriptCommand,
  payload: HookPayload<H>,
  options: FilePluginOptions,
  logger: FileChannelLogger = SILENT_LOGGER,
): Promise<HookResult<H>> {
  const timeoutMs = command.timeoutMs ?? options.defaultTimeoutMs ?? DEFAULT_AGENT_CONFIG.toolTimeoutMs;
  const sessionId =
    'sessionId' in payload && typeof payload.sessionId === 'string' ? payload.sessionId : undefined;
  const result = await runScript({
    command,
    componentDirectory: options.componentDirectory,
    cwd: options.cwd,
    home: options.home,
    sessionId,
    input: toWirePayload(payload as HookPayload<HookName>),
    timeoutMs,
  });
  const fields = {
    plugin: options.definition.id,
    hook,
    componentDirectory: options.componentDirectory,
    exitCode: result.exitCode,
    durationMs: Math.round(result.durationMs),
    stderr: tail(result.stderr),
  };
  const warn = (problem: string): HookResult<H> => {
    logger.warn(
      { ...fields, problem },
      `plugin ${options.definition.id} hook ${hook}: ${problem}; continuing`,
    );
    return { action: 'continue' };
  };
  switch (result.outcome) {
    case 'failed_to_start':
      return warn(result.startError ?? 'the script could not start');
    case 'timed_out':
      return warn(`the script timed out after ${String(timeoutMs)} ms and was killed`);
    case 'cancelled':
      return warn('the script was cancelled');
    case 'exited':
      break;
  }
  if (result.exitCode !== 0) {
    const how =
      result.exitCode === null
        ? `was ended by ${String(result.exitSignal)}`
        : `exited with code ${String(result.exitCode)}`;
    return warn(`the script ${how}`);
  }
  if (result.stderr !== '')
    logger.debug(fields, `plugin ${options.definition.id} hook ${hook} wrote to stderr`);
  const parsed = parseHookOutput(hook, result.stdout.text);
  if ('problem' in parsed) return warn(parsed.problem);
  return parsed;
}

function tail(text: string): string {
  return text.length > STDERR_IN_WARNING_BYTES ? `…${text.slice(-STDERR_IN_WARNING_BYTES)}` : text;
}
