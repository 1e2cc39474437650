import { AgentError } from '../errors/index.ts';
import type { ToolContext, ToolHandler, ToolInput, ToolOutput } from '../tools/index.ts';
import type { FileChannelLogger } from './file-logger.ts';
import { SILENT_LOGGER } from './file-logger.ts';
import { runScript } from './script-runner.ts';
import type { ScriptRunResult } from './script-runner.ts';
import type { FileToolDefinition } from './tool-entry.ts';

/** Stderr shown in an error result when a failing tool printed nothing on stdout. */
const STDERR_IN_ERROR_BYTES = 2048;

/**
 * What `createFileTool` binds.
 *
 * @example
 * const options: FileToolOptions = { definition, componentDirectory: '/home/me/.youyou/tools/grep' };
 */
export interface FileToolOptions {
  definition: FileToolDefinition;
  /** The folder holding `index.md`: relative paths and `YOUYOU_COMPONENT_DIR`. */
  componentDirectory: string;
  /**
   * The timeout when `execution.timeout_ms` is absent: `tool_timeout_ms` of config.yaml when it
   * sets one. Without either, the dispatcher's timeout (which aborts `context.signal`) applies.
   */
  defaultTimeoutMs?: number | undefined;
  logger?: FileChannelLogger;
}

/**
 * Binds a tool `index.md` to the script protocol (spec §3.3, §5.6): the script receives
 * `{"call_id", "tool_name", "arguments"}` on stdin; stdout is the content; a non-zero exit is an
 * error result. A timeout throws TOOL_TIMEOUT; an aborted `context.signal` (the dispatcher's
 * timeout) kills the process tree and throws the abort reason (REQUEST_CANCELLED when it is not an
 * `AgentError`); a script that cannot start throws TOOL_EXECUTION_ERROR. A cancelled turn does not
 * stop the script: `context.cancelSignal` is ignored, so a mutating script is never killed
 * mid-write and its result is recorded (spec §6.2).
 *
 * @example
 * const tool = createFileTool({ definition, componentDirectory: '/home/me/.youyou/tools/count' });
 * const output = await tool.execute(
 *   { callId: 'c1', toolName: 'count', arguments: { text: 'a b' } },
 *   { signal: new AbortController().signal, sessionId: 's1', turnId: 't1', cwd: process.cwd(),
 *     home: '/home/me/.youyou' },
 * );
 */
export function createFileTool(options: FileToolOptions): ToolHandler {
  const { definition, componentDirectory } = options;
  const logger = options.logger ?? SILENT_LOGGER;
  const ownTimeoutMs = definition.execution.timeoutMs ?? options.defaultTimeoutMs;
  const tool: ToolHandler = {
    name: definition.name,
    description: definition.description,
    parameters: definition.parameters,
    mutating: definition.mutating,
    async execute(input: ToolInput, context: ToolContext): Promise<ToolOutput> {
      // Only `signal` (a timeout) stops the script; a cancel waits for it (spec §6.2).
      const result = await runScript({
        command: definition.execution,
        componentDirectory,
        cwd: context.cwd,
        home: context.home,
        sessionId: context.sessionId,
        input: { call_id: input.callId, tool_name: input.toolName, arguments: input.arguments },
        timeoutMs: ownTimeoutMs,
        signal: context.signal,
      });
      logRun(logger, definition.name, componentDirectory, result);
      return toToolOutput(definition.name, result, ownTimeoutMs, context.signal);
    },
  };
  if (definition.execution.timeoutMs !== undefined) {
    return { ...tool, timeoutMs: definition.execution.timeoutMs };
  }
  return tool;
}

function toToolOutput(
  name: string,
  result: ScriptRunResult,
  timeoutMs: number | undefined,
  signal: AbortSignal,
): ToolOutput {
  const details = { tool: name, executable: result.executable, durationMs: Math.round(result.durationMs) };
  switch (result.outcome) {
    case 'failed_to_start':
      throw new AgentError(
        'TOOL_EXECUTION_ERROR',
        `Tool ${name} could not run: ${result.startError ?? 'unknown reason'}`,
        {
          details,
        },
      );
    case 'timed_out':
      throw new AgentError(
        'TOOL_TIMEOUT',
        `Tool ${name} timed out after ${String(timeoutMs)} ms; its process tree was killed`,
        {
          details: { ...details, timeoutMs },
        },
      );
    case 'cancelled': {
      const reason: unknown = signal.reason;
      if (reason instanceof AgentError) throw reason;
      throw new AgentError('REQUEST_CANCELLED', `Tool ${name} was cancelled; its process tree was killed`, {
        details,
        cause: reason,
      });
    }
    case 'exited':
      break;
  }
  const text = result.stdout.text;
  if (result.exitCode === 0) return { content: text };
  if (text.trim() !== '') return { content: text, isError: true };
  const how =
    result.exitCode === null
      ? `was ended by ${String(result.exitSignal)}`
      : `exited with code ${String(result.exitCode)}`;
  const stderr = result.stderr.trim();
  const tail = stderr.length > STDERR_IN_ERROR_BYTES ? `…${stderr.slice(-STDERR_IN_ERROR_BYTES)}` : stderr;
  return {
    content:
      tail === '' ? `Tool ${name} ${how} and printed nothing.` : `Tool ${name} ${how}. stderr:\n${tail}`,
    isError: true,
  };
}

function logRun(logger: FileChannelLogger, name: string, directory: string, result: ScriptRunResult): void {
  const fields = {
    tool: name,
    componentDirectory: directory,
    outcome: result.outcome,
    exitCode: result.exitCode,
    durationMs: Math.round(result.durationMs),
  };
  if (result.stderr !== '')
    logger.debug({ ...fields, stderr: result.stderr }, `tool ${name} wrote to stderr`);
  if (result.stdout.invalidUtf8) {
    logger.warn(fields, `tool ${name} printed bytes that are not UTF-8; they were replaced with U+FFFD`);
  }
  if (result.stdout.truncated) {
    logger.warn(
      { ...fields, bytes: result.stdout.totalBytes },
      `tool ${name} printed more than 1 MB; the output was truncated`,
    );
  }
}
