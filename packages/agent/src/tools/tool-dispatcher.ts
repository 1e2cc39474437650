import type { StandardSchemaV1 } from '@standard-schema/spec';
import { AgentError, type AgentErrorCode } from '../errors/index.ts';
import type { HookRegistry } from '../hooks/index.ts';
import type { ImageBlock } from '../content/index.ts';
import type { ToolCallRequest, ToolDefinition } from '../provider/index.ts';
import { compileArgumentValidator, type ArgumentValidator } from './argument-validator.ts';
import { checkOutputImages } from './output-images.ts';
import type { ToolHandler, ToolOutput } from './tool-handler.ts';
import { truncateOutput } from './truncate-output.ts';

/** What one call produced; the dispatcher never throws, every failure is a result for the model. */
export interface ToolCallOutcome {
  callId: string;
  toolName: string;
  /** The arguments the tool ran with (after BeforeToolUse), when they parsed. */
  arguments: Readonly<Record<string, unknown>> | undefined;
  content: string;
  isError: boolean;
  durationMs: number;
  metadata?: Readonly<Record<string, unknown>>;
  /** The images the tool returned, checked (decision 0046). */
  images?: readonly ImageBlock[];
  errorCode?: AgentErrorCode;
}

export interface DispatchContext {
  sessionId: string;
  turnId: string;
  cwd: string;
  home: string;
  /** The turn's cancellation signal: handed to handlers as `cancelSignal`, never as their stop signal. */
  signal: AbortSignal;
}

interface RegisteredTool {
  handler: ToolHandler;
  /** The JSON Schema check; absent when the handler brings its own Standard Schema. */
  validate: ArgumentValidator | undefined;
}

/**
 * The single place every tool call passes through, whatever registered the tool (spec §4.4):
 * argument parsing and validation, BeforeToolUse/AfterToolUse, timeout, the 1 MB output cap.
 */
export class ToolDispatcher {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #hooks: HookRegistry;
  readonly #defaultTimeoutMs: number;
  readonly definitions: readonly ToolDefinition[];

  constructor(tools: Iterable<ToolHandler>, hooks: HookRegistry, defaultTimeoutMs: number) {
    const definitions: ToolDefinition[] = [];
    for (const handler of tools) {
      this.#tools.set(handler.name, {
        handler,
        validate:
          handler.schema === undefined
            ? compileArgumentValidator(handler.name, handler.parameters)
            : undefined,
      });
      definitions.push({
        name: handler.name,
        description: handler.description,
        parameters: handler.parameters,
      });
    }
    this.definitions = definitions;
    this.#hooks = hooks;
    this.#defaultTimeoutMs = defaultTimeoutMs;
  }

  /** All read-only → concurrent; any mutating (or unknown) tool → the whole batch in model order. */
  canRunConcurrently(calls: readonly ToolCallRequest[]): boolean {
    return calls.every((call) => this.#tools.get(call.toolName)?.handler.mutating === false);
  }

  async dispatch(call: ToolCallRequest, context: DispatchContext): Promise<ToolCallOutcome> {
    const startedAt = performance.now();
    const outcome = await this.#execute(call, context, startedAt);
    if (!this.#hooks.has('AfterToolUse')) return outcome;
    const { data, aborted } = await this.#hooks.run('AfterToolUse', {
      sessionId: context.sessionId,
      turnId: context.turnId,
      callId: call.callId,
      toolName: call.toolName,
      output: { content: outcome.content, isError: outcome.isError },
      durationMs: outcome.durationMs,
      success: !outcome.isError,
    });
    if (aborted !== undefined) {
      // Abort on AfterToolUse (decision 0005): the tool ran, but its output does not reach the model.
      const { images: _withheld, ...rest } = outcome;
      return {
        ...rest,
        content: `Error [HOOK_ABORTED]: Plugin '${aborted.pluginId}' withheld the output of '${call.toolName}' (the tool did run): ${aborted.reason}`,
        isError: true,
        errorCode: 'HOOK_ABORTED',
      };
    }
    const output = data.output as unknown;
    if (isOutputShape(output) && (output.content !== outcome.content || output.isError !== outcome.isError)) {
      return { ...outcome, content: truncateOutput(output.content), isError: output.isError };
    }
    return outcome;
  }

  async #execute(
    call: ToolCallRequest,
    context: DispatchContext,
    startedAt: number,
  ): Promise<ToolCallOutcome> {
    const fail = (
      code: AgentErrorCode,
      message: string,
      parsed?: Record<string, unknown>,
    ): ToolCallOutcome => ({
      callId: call.callId,
      toolName: call.toolName,
      arguments: parsed,
      content: `Error [${code}]: ${message}`,
      isError: true,
      durationMs: Math.round(performance.now() - startedAt),
      errorCode: code,
    });

    const parsed = parseArguments(call.arguments);
    if (typeof parsed === 'string') {
      return fail(
        'INVALID_INPUT',
        `The arguments for tool '${call.toolName}' are not a JSON object: ${parsed}`,
      );
    }
    const registered = this.#tools.get(call.toolName);
    if (registered === undefined) {
      const known = [...this.#tools.keys()].join(', ') || 'none';
      return fail(
        'TOOL_NOT_FOUND',
        `There is no tool named '${call.toolName}'. Available tools: ${known}.`,
        parsed,
      );
    }

    let args: Record<string, unknown> = parsed;
    if (this.#hooks.has('BeforeToolUse')) {
      const { data, aborted } = await this.#hooks.run('BeforeToolUse', {
        sessionId: context.sessionId,
        turnId: context.turnId,
        callId: call.callId,
        toolName: call.toolName,
        arguments: parsed,
      });
      if (aborted !== undefined) {
        return fail(
          'TOOL_EXECUTION_ERROR',
          `The call to '${call.toolName}' was blocked by plugin '${aborted.pluginId}': ${aborted.reason}`,
          parsed,
        );
      }
      if (!isPlainObject(data.arguments)) {
        return fail(
          'INVALID_INPUT',
          `A plugin rewrote the arguments of '${call.toolName}' into a non-object.`,
          parsed,
        );
      }
      args = structuredClone(data.arguments as Record<string, unknown>);
    }

    const checked = await checkArguments(registered, args);
    if (typeof checked === 'string') {
      return fail('INVALID_INPUT', `Invalid arguments for tool '${call.toolName}': ${checked}.`, args);
    }
    args = checked;

    const handler = registered.handler;
    const timeoutMs = handler.timeoutMs ?? this.#defaultTimeoutMs;
    const timeout = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        timeout.abort(
          new AgentError('TOOL_TIMEOUT', `Tool '${call.toolName}' timed out after ${timeoutMs} ms.`),
        );
        resolve('timeout');
      }, timeoutMs);
    });
    try {
      const running = Promise.resolve().then(() =>
        handler.execute(
          { callId: call.callId, toolName: call.toolName, arguments: args },
          {
            // A cancel waits for running tools (spec §6.2); only the timeout stops one (§4.4).
            signal: timeout.signal,
            cancelSignal: context.signal,
            sessionId: context.sessionId,
            turnId: context.turnId,
            cwd: context.cwd,
            home: context.home,
          },
        ),
      );
      const output = await Promise.race([running, timedOut]);
      if (output === 'timeout') {
        running.catch(() => {}); // the handler may still settle after we gave up on it
        return fail('TOOL_TIMEOUT', `Tool '${call.toolName}' timed out after ${timeoutMs} ms.`, args);
      }
      if (!isOutputShape(output, true)) {
        return fail(
          'TOOL_EXECUTION_ERROR',
          `Tool '${call.toolName}' returned an invalid output (expected { content: string }).`,
          args,
        );
      }
      const images = output.images === undefined ? undefined : checkOutputImages(output.images);
      if (typeof images === 'string') {
        return fail(
          'TOOL_EXECUTION_ERROR',
          `Tool '${call.toolName}' returned an invalid output: ${images}.`,
          args,
        );
      }
      const notes = images === undefined || images.notes.length === 0 ? '' : `\n${images.notes.join('\n')}`;
      return {
        callId: call.callId,
        toolName: call.toolName,
        arguments: args,
        content: truncateOutput(output.content + notes),
        isError: output.isError === true,
        durationMs: Math.round(performance.now() - startedAt),
        ...(output.metadata === undefined ? {} : { metadata: output.metadata }),
        ...(images === undefined || images.images.length === 0 ? {} : { images: images.images }),
      };
    } catch (error) {
      const cause = AgentError.fromUnknown(error, 'TOOL_EXECUTION_ERROR', { source: 'tool' });
      return fail(cause.code, `Tool '${call.toolName}' failed: ${cause.message}`, args);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The arguments after the tool's check (a Standard Schema's output), or what is wrong with them. */
async function checkArguments(
  registered: RegisteredTool,
  args: Record<string, unknown>,
): Promise<Record<string, unknown> | string> {
  const { schema } = registered.handler;
  if (schema === undefined) return registered.validate?.(args) ?? args;
  let result: StandardSchemaV1.Result<Record<string, unknown>>;
  try {
    result = await schema['~standard'].validate(args);
  } catch (error) {
    return `the schema check failed: ${String(error)}`;
  }
  if (result.issues === undefined) return isPlainObject(result.value) ? result.value : args;
  return result.issues
    .map((issue) => {
      const path = (issue.path ?? []).map((segment) =>
        String(typeof segment === 'object' ? segment.key : segment),
      );
      return `${path.length === 0 ? 'arguments' : `arguments/${path.join('/')}`} ${issue.message}`;
    })
    .join('; ');
}

function parseArguments(raw: string): Record<string, unknown> | string {
  if (raw.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return (error as Error).message;
  }
  return isPlainObject(value)
    ? (value as Record<string, unknown>)
    : `got ${Array.isArray(value) ? 'an array' : typeof value}`;
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isOutputShape(value: unknown, optionalError = false): value is ToolOutput & { isError: boolean } {
  if (!isPlainObject(value)) return false;
  const output = value as Record<string, unknown>;
  if (typeof output.content !== 'string') return false;
  return optionalError
    ? output.isError === undefined || typeof output.isError === 'boolean'
    : typeof output.isError === 'boolean';
}
