import { randomUUID } from 'node:crypto';
import type { ToolHandler } from '@youyou/agent';
import type { ToolDecider, ToolPolicy, UiActionRequest, UiActionResult } from '@youyou/contracts';
import { Ajv, type ValidateFunction } from 'ajv';
import { ApiError } from '../errors/index.ts';
import type { ConversationRepository } from '../storage/index.ts';
import {
  outcomeOf,
  readableArguments,
  summarizeArguments,
  type ToolAuditRepository,
  type ToolCatalog,
  type ToolGrantRepository,
} from '../tools/index.ts';
import type { UiSurfaceRegistry } from './surface-registry.ts';

/** The most output an action answers with; the rest is cut with a note. */
const OUTPUT_LIMIT = 64 * 1024;

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: true });

/**
 * Runs what a panel's or a card's button or form names (spec §4.6: "actions call the extension's
 * declared tools or commands, through the same policy"): the source must declare the tool or the
 * command; a tool's enablement and confirmation policy come from the same catalog as in a run
 * (`deny` refuses, `confirm` needs the user's confirmation, which the renderer asks for); the
 * arguments are checked against the tool's JSON Schema; the call has the tool's timeout.
 *
 * @example
 * const result = await runner.run({ source: 'extension:weather', surface: { kind: 'panel', id: 'w' },
 *   action: { tool: 'weather_lookup', arguments: { city: 'Oslo' } } }, request.signal);
 */
export class UiActionRunner {
  readonly #registry: UiSurfaceRegistry;
  readonly #catalog: ToolCatalog;
  readonly #home: string;
  readonly #timeoutMs: number;
  readonly #validators = new WeakMap<ToolHandler, ValidateFunction>();
  readonly #audit:
    | { repository: ToolAuditRepository; conversations: ConversationRepository; grants?: ToolGrantRepository }
    | undefined;

  /**
   * With `audit`, every pressed button (a tool or a command, allowed or denied) is written to the
   * tool audit (spec §4.8) with its source and the user as the actor: a card's into its
   * conversation, a panel's outside any; the conversation's grants ("allow for this
   * conversation") count as confirmation.
   */
  constructor(options: {
    registry: UiSurfaceRegistry;
    catalog: ToolCatalog;
    home: string;
    timeoutMs?: number;
    audit?: {
      repository: ToolAuditRepository;
      conversations: ConversationRepository;
      grants?: ToolGrantRepository;
    };
  }) {
    this.#registry = options.registry;
    this.#catalog = options.catalog;
    this.#home = options.home;
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#audit = options.audit;
  }

  async run(request: UiActionRequest, signal: AbortSignal): Promise<UiActionResult> {
    const started = performance.now();
    const argumentsMap = request.action.arguments ?? {};
    // A card's conversation must exist (its calls go into that conversation's audit).
    const conversation =
      this.#audit !== undefined && request.conversation_id !== undefined
        ? await this.#audit.conversations.get(request.conversation_id)
        : undefined;
    const where = { request, conversation };
    if ('command' in request.action) {
      const command = this.#registry.command(request.source, request.action.command);
      if (command === undefined) throw this.#undeclared(request, 'command', request.action.command);
      const startedAt = Date.now();
      let result: UiActionResult;
      try {
        const ran = await command.run(argumentsMap, { conversationId: request.conversation_id, signal });
        result = {
          output: cut(ran.output),
          is_error: ran.isError === true,
          duration_ms: Math.round(performance.now() - started),
        };
      } catch (error) {
        await this.#record(where, {
          name: `/${request.action.command}`,
          argumentsMap,
          output: `Error [INTERNAL]: ${error instanceof Error ? error.message : String(error)}`,
          success: false,
          policy: 'auto',
          decidedBy: 'policy',
          startedAt,
        });
        throw error;
      }
      await this.#record(where, {
        name: `/${request.action.command}`,
        argumentsMap,
        output: result.output,
        success: !result.is_error,
        policy: 'auto',
        decidedBy: 'policy',
        startedAt,
      });
      return result;
    }
    const name = request.action.tool;
    const tool = this.#registry.tool(request.source, name);
    if (tool === undefined) throw this.#undeclared(request, 'tool', name);
    const { policy, disabled } = await this.#catalog.policyOf(name, request.conversation_id);
    if (policy === 'deny') {
      await this.#record(where, {
        name,
        argumentsMap,
        output: `Error [ACTION_DENIED]: the policy of ${name} is deny.`,
        success: false,
        denied: true,
        policy,
        decidedBy: disabled ? 'settings' : 'policy',
        startedAt: Date.now(),
      });
      throw new ApiError(
        'ACTION_DENIED',
        disabled ? `The tool ${name} is turned off in Settings.` : `The policy of ${name} is deny.`,
        { details: { tool: name, source: request.source, disabled } },
      );
    }
    // "Allow for this conversation" on a confirmation card covers the conversation's cards too.
    const granted =
      policy === 'confirm' &&
      request.conversation_id !== undefined &&
      this.#audit?.grants !== undefined &&
      (await this.#audit.grants.has(request.conversation_id, name));
    if (policy === 'confirm' && request.confirmed !== true && !granted) {
      throw new ApiError('ACTION_CONFIRMATION_REQUIRED', `${name} asks for confirmation before it runs.`, {
        details: {
          tool: name,
          description: tool.description,
          mutating: tool.mutating,
          arguments: readableArguments(argumentsMap),
        },
      });
    }
    const validate = this.#validator(tool);
    const input = structuredClone(argumentsMap) as Record<string, unknown>;
    if (!validate(input)) {
      throw new ApiError('INVALID_INPUT', `The arguments do not fit ${name}'s parameters.`, {
        details: {
          problems: (validate.errors ?? []).map((error) => ({
            path: error.instancePath.replace(/^\//, '').replaceAll('/', '.') || '(arguments)',
            message: error.message ?? 'invalid',
          })),
        },
      });
    }
    const callId = `ui-${randomUUID()}`;
    const startedAt = Date.now();
    const stop = AbortSignal.any([signal, AbortSignal.timeout(tool.timeoutMs ?? this.#timeoutMs)]);
    let result: UiActionResult;
    let timedOut = false;
    try {
      const output = await tool.execute(
        { callId, toolName: name, arguments: input },
        {
          signal: stop,
          cancelSignal: signal,
          sessionId: callId,
          turnId: callId,
          cwd: this.#home,
          home: this.#home,
        },
      );
      const schema = output.metadata?.['ui_schema'];
      result = {
        output: cut(output.content),
        is_error: output.isError === true,
        duration_ms: Math.round(performance.now() - started),
        ...(schema === undefined ? {} : { schema }),
      };
    } catch (error) {
      timedOut = stop.aborted && !signal.aborted;
      result = {
        output: timedOut
          ? `Error [TOOL_TIMEOUT]: ${name} did not answer in time.`
          : error instanceof Error
            ? error.message
            : String(error),
        is_error: true,
        duration_ms: Math.round(performance.now() - started),
      };
    }
    await this.#record(where, {
      name,
      argumentsMap,
      output: result.output,
      success: !result.is_error,
      policy,
      decidedBy: policy !== 'confirm' ? 'policy' : granted ? 'conversation_grant' : 'user',
      startedAt,
      callId,
    });
    if (timedOut) throw new ApiError('TOOL_TIMEOUT', `${name} did not answer in time.`, { retryable: true });
    return result;
  }

  /**
   * Writes one pressed button into the tool audit (spec §4.8), in a conversation or outside any
   * (a panel's): the surface as the run, the source and `user` as the actor.
   */
  async #record(
    where: { request: UiActionRequest; conversation: { id: string; project_id: string | null } | undefined },
    call: {
      name: string;
      argumentsMap: Readonly<Record<string, unknown>>;
      output: string;
      success: boolean;
      denied?: boolean;
      policy: ToolPolicy;
      decidedBy: ToolDecider;
      startedAt: number;
      callId?: string;
    },
  ): Promise<void> {
    const audit = this.#audit;
    if (audit === undefined) return;
    const { request, conversation } = where;
    const { outcome, errorCode } = outcomeOf(call.output, call.success, call.denied === true);
    const endedAt = Date.now();
    await audit.repository.insert({
      id: randomUUID(),
      conversation_id: conversation?.id ?? null,
      project_id: conversation?.project_id ?? null,
      // Not a run: the surface the user pressed, so the audit says where the call came from.
      run_id: `ui:${request.surface.kind}:${request.surface.id}`,
      call_id: call.callId ?? `ui-${randomUUID()}`,
      tool_name: call.name,
      arguments_summary: summarizeArguments(JSON.stringify(call.argumentsMap)),
      outcome,
      error_code: errorCode,
      duration_ms: endedAt - call.startedAt,
      policy: call.policy,
      decided_by: call.decidedBy,
      card_id: null,
      started_at: call.startedAt,
      ended_at: endedAt,
      source: request.source,
      actor: 'user',
    });
  }

  #validator(tool: ToolHandler): ValidateFunction {
    let validate = this.#validators.get(tool);
    if (validate === undefined) {
      validate = ajv.compile(tool.parameters);
      this.#validators.set(tool, validate);
    }
    return validate;
  }

  #undeclared(request: UiActionRequest, kind: 'tool' | 'command', name: string): ApiError {
    const registered = this.#registry.has(request.source);
    return new ApiError(
      'ACTION_NOT_DECLARED',
      registered
        ? `${request.source} declares no ${kind} named ${name}.`
        : `${request.source} is not installed or is turned off.`,
      { details: { source: request.source, [kind]: name, source_registered: registered } },
    );
  }
}

function cut(text: string): string {
  return text.length <= OUTPUT_LIMIT
    ? text
    : `${text.slice(0, OUTPUT_LIMIT)}\n… (${text.length - OUTPUT_LIMIT} more characters)`;
}
