import type { UserInput } from '../content/index.ts';
import { estimateTextTokens, type CompactRequest } from '../context/index.ts';
import { AgentError } from '../errors/index.ts';
import { EventStamp, type AgentEvent, type TurnSummary } from '../events/index.ts';
import { ModelCall, type Reply } from '../model-call/index.ts';
import type { FinishReason, ToolCallRequest, UserMessage } from '../provider/index.ts';
import type { ToolCallOutcome } from '../tools/index.ts';
import type { SessionRecordInit } from './session-record.ts';
import type { SessionState } from './session-runtime.ts';
import {
  cancelledOutcome,
  endEvent,
  limitOutcome,
  runToolBatch,
  startEvent,
  truncatedOutcome,
} from './tool-batch.ts';
import type { TurnControl, TurnLoop } from './turn.ts';
import { prepareInput, skillMessage } from './turn-input.ts';
import { TurnRecords } from './turn-records.ts';

const TITLE_LENGTH = 80;

/**
 * The turn loop (spec §4.1): prepare (check the input, TurnStart, the user's message), then model
 * step ↔ tool step until the model stops calling tools, then settle (TurnEnd and the last event:
 * TurnComplete or TurnCancelled). Events are produced as the consumer pulls them.
 */
export async function* runTurn(state: SessionState, input: UserInput, control: TurnControl): TurnLoop {
  const turn = new TurnRun(state, control);
  try {
    yield* turn.prepare(input);
    for (;;) {
      const next = yield* turn.modelStep();
      if (next === 'retry') continue;
      if (next === 'end' || !(yield* turn.toolStep())) break;
    }
    yield* turn.settle();
  } catch (thrown) {
    yield* turn.settle(thrown);
  } finally {
    if (!turn.settled) {
      // The consumer stopped iterating early: a stop whose events nobody will read.
      control.cancel();
      await turn.cancelledEvents();
    }
  }
}

/** One turn's state across its steps. */
class TurnRun {
  readonly #state: SessionState;
  readonly #control: TurnControl;
  readonly #stamp: EventStamp;
  readonly #records: TurnRecords;
  readonly #summary: TurnSummary = {
    output: '',
    toolCalls: 0,
    modelCalls: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
  };
  settled = false;
  /** TurnEnd pairs with TurnStart: a turn refused before TurnStart fires neither. */
  #started = false;
  #systemPrompt = '';
  /** Estimated tokens of what every request carries besides the messages. */
  #fixedTokens = 0;
  #overflowRetried = false;
  /** The model call in flight, kept so every way out can still store what arrived. */
  #call: ModelCall | undefined;
  /** The last complete reply, whose calls the tool step runs. */
  #reply: Reply | undefined;
  #finishReason: FinishReason | undefined;
  /** Calls of a stored reply that have no result yet. */
  #unanswered: readonly ToolCallRequest[] = [];

  constructor(state: SessionState, control: TurnControl) {
    this.#state = state;
    this.#control = control;
    this.#stamp = new EventStamp(state.sessionId, control.turnId, state);
    this.#records = new TurnRecords(state, this.#stamp);
  }

  get #signal(): AbortSignal {
    return this.#control.signal;
  }

  /** Checks the input, runs TurnStart, and stores skill prompts and the user's message. */
  async *prepare(input: UserInput): AsyncGenerator<AgentEvent> {
    const { runtime, sessionId } = this.#state;
    const turnId = this.#control.turnId;
    // Checked before anything is stored or sent.
    const prepared = await prepareInput(input, runtime);

    // TurnStart may rewrite the user's text and add dynamic prompt sections.
    const started = await runtime.hooks.run('TurnStart', {
      sessionId,
      turnId,
      userInput: prepared.text,
      dynamicSections: [],
    });
    if (started.aborted !== undefined) {
      throw new AgentError(
        'HOOK_ABORTED',
        `Plugin '${started.aborted.pluginId}' stopped the turn: ${started.aborted.reason}`,
        { details: { pluginId: started.aborted.pluginId, hook: 'TurnStart' } },
      );
    }
    this.#started = true;
    let content = prepared.content;
    if (typeof started.data.userInput === 'string' && started.data.userInput !== prepared.text) {
      content = [
        { type: 'text', text: started.data.userInput },
        ...content.filter((block) => block.type !== 'text'),
      ];
    }
    const dynamicSections = Array.isArray(started.data.dynamicSections)
      ? started.data.dynamicSections.filter((section): section is string => typeof section === 'string')
      : [];
    const systemPrompt = runtime.prompt.build({ memories: this.#state.memories, dynamicSections });
    this.#state.systemPrompt = systemPrompt;
    this.#systemPrompt = systemPrompt.text;
    this.#fixedTokens =
      estimateTextTokens(systemPrompt.text) +
      estimateTextTokens(JSON.stringify(runtime.dispatcher.definitions));

    // Skill prompts, then the user's message, enter the context and the log.
    const records: SessionRecordInit[] = [];
    for (const { skill, arguments: skillArguments } of prepared.skills) {
      const text = skillMessage(skill, skillArguments);
      this.#records.append({ role: 'system', content: text });
      records.push({ type: 'system_message', turnId, kind: 'skill', content: text });
    }
    const userMessage: UserMessage = {
      role: 'user',
      content:
        content.length > 0
          ? content
          : [{ type: 'text', text: prepared.skills.map(({ skill }) => `/${skill.name}`).join(' ') }],
    };
    this.#records.append(userMessage);
    records.push({ type: 'user_message', turnId, content: userMessage.content });
    if (!this.#state.titled) {
      this.#state.titled = true;
      const title = prepared.text.replace(/\s+/g, ' ').trim().slice(0, TITLE_LENGTH);
      records.push({
        type: 'metadata',
        kind: 'title',
        title: title === '' ? (prepared.skills[0]?.skill.name ?? 'Untitled') : title,
      });
    }
    yield* await this.#records.persist(...records);
  }

  /**
   * One model call: compacts first when the estimate passes the threshold, streams the call (the
   * `Turn` pulls it), and stores the complete reply. `retry`: the provider overflowed and the context
   * was compacted; `tools`: the reply called tools; `end`: it did not, or the turn was stopped.
   */
  async *modelStep(): AsyncGenerator<AgentEvent | ModelCall, 'retry' | 'tools' | 'end'> {
    if (this.#signal.aborted) return 'end';
    const { runtime, context } = this.#state;
    const { config, model } = runtime;
    if (
      this.#fixedTokens + context.estimatedTokens + this.#records.imageTokens >
      config.compactThreshold * model.model.contextWindow
    ) {
      const events = await this.#compact();
      if (events !== undefined) yield* events;
    }
    this.#summary.modelCalls++;
    const call = new ModelCall({
      provider: model.provider,
      request: {
        model: model.model.id,
        systemPrompt: this.#systemPrompt,
        messages: this.#records.withImages(context.messages),
        tools: runtime.dispatcher.definitions,
        ...(config.temperature === undefined ? {} : { temperature: config.temperature }),
        ...(config.maxTokens === undefined ? {} : { maxTokens: config.maxTokens }),
        ...(config.reasoningEffort === undefined ? {} : { reasoningEffort: config.reasoningEffort }),
      },
      signal: this.#signal,
      firstChunkTimeoutMs: config.providerFirstChunkTimeoutMs,
      chunkTimeoutMs: config.providerChunkTimeoutMs,
      stamp: this.#stamp,
    });
    this.#call = call;
    yield call;

    const { reply, outcome } = call;
    if (outcome.usage !== undefined) {
      const usage = this.#summary.usage;
      usage.inputTokens += outcome.usage.inputTokens;
      usage.outputTokens += outcome.usage.outputTokens;
      if (outcome.usage.cachedInputTokens !== undefined)
        usage.cachedInputTokens = (usage.cachedInputTokens ?? 0) + outcome.usage.cachedInputTokens;
      if (outcome.usage.cacheWriteTokens !== undefined)
        usage.cacheWriteTokens = (usage.cacheWriteTokens ?? 0) + outcome.usage.cacheWriteTokens;
    }
    this.#summary.output += reply.text;
    this.#finishReason = outcome.finishReason;
    if (this.#signal.aborted) return 'end';

    const { failure, overflow } = outcome;
    if (overflow !== undefined && reply.empty) {
      // The fallback trigger (spec §4.2): compact, then retry this request once.
      this.#call = undefined;
      this.#summary.modelCalls--;
      yield* await this.#compactAfterOverflow(overflow);
      return 'retry';
    }
    if (failure !== undefined) throw failure;
    if (overflow !== undefined)
      throw new AgentError('PROVIDER_ERROR', overflow.message, {
        details: { reason: 'context_length_exceeded' },
      });

    // A complete reply: store it with its calls; the tool step runs them.
    this.#call = undefined;
    this.#reply = reply;
    this.#unanswered = reply.calls;
    yield* await this.#records.storeReply(reply, undefined, outcome.providerMetadata);
    return reply.calls.length === 0 ? 'end' : 'tools';
  }

  /**
   * Runs the reply's calls (spec §4.1) up to the turn's limit. A call whose arguments were cut off at
   * the token limit is never run: it gets an error result saying so, and the turn ends there with
   * finishReason `length`. Returns whether the loop goes on to another model step.
   */
  async *toolStep(): AsyncGenerator<AgentEvent, boolean> {
    const { runtime, sessionId } = this.#state;
    const config = runtime.config;
    const calls = this.#reply?.calls ?? [];
    const truncated = new Set(
      this.#finishReason === 'length' ? calls.filter((call) => !isJsonObject(call.arguments)) : [],
    );
    const wanted = truncated.size === 0 ? calls : calls.filter((call) => !truncated.has(call));
    const allowed = Math.max(0, config.maxToolCallsPerTurn - this.#summary.toolCalls);
    const runnable = wanted.slice(0, allowed);
    const refused = wanted.slice(allowed);

    const batch = runToolBatch(runtime.dispatcher, runnable, {
      sessionId,
      turnId: this.#control.turnId,
      cwd: runtime.cwd,
      home: runtime.home,
      signal: this.#signal,
    });
    let ran: ToolCallOutcome[];
    for (;;) {
      const next = await batch.next();
      if (next.done === true) {
        ran = next.value;
        break;
      }
      yield this.#stamp.stamp(next.value);
    }
    // Results in the model's order; the calls that did not run are answered here.
    let outcomes = ran;
    if (runnable.length !== calls.length) {
      const byCall = new Map(runnable.map((call, index) => [call, ran[index]]));
      outcomes = [];
      for (const call of calls) {
        let outcome = byCall.get(call);
        if (outcome === undefined) {
          outcome = truncated.has(call)
            ? truncatedOutcome(call)
            : limitOutcome(call, config.maxToolCallsPerTurn);
          yield this.#stamp.stamp(startEvent(call));
          yield this.#stamp.stamp(endEvent(outcome));
        }
        outcomes.push(outcome);
      }
    }
    this.#summary.toolCalls += runnable.length;
    this.#unanswered = [];
    yield* await this.#records.storeResults(outcomes, runtime.model.model.capabilities.vision);
    if (refused.length > 0) {
      throw new AgentError(
        'MAX_TOOL_CALLS_EXCEEDED',
        `The turn reached its limit of ${config.maxToolCallsPerTurn} tool calls and was ended; ${refused.length} call(s) did not run.`,
        { details: { limit: config.maxToolCallsPerTurn, refused: refused.length } },
      );
    }
    return truncated.size === 0 && !this.#signal.aborted;
  }

  /**
   * Ends the turn: TurnEnd, then TurnComplete (completed, or failed with the error) — or, when the
   * turn was stopped, the cancelled results and TurnCancelled.
   */
  async *settle(thrown?: unknown): AsyncGenerator<AgentEvent> {
    const stopped =
      this.#signal.aborted && !(thrown instanceof AgentError && thrown.code === 'MAX_TOOL_CALLS_EXCEEDED');
    if (stopped) {
      yield* await this.cancelledEvents();
      return;
    }
    const summary = this.#summary;
    if (thrown === undefined) {
      await this.#turnEnd();
      this.#state.completedTurns++;
      this.settled = true;
      this.#control.finish({ state: 'completed', summary });
      const finishReason = this.#finishReason;
      yield this.#stamp.stamp({
        type: 'TurnComplete',
        status: 'completed',
        ...(finishReason === undefined ? {} : { finishReason }),
        ...summary,
      });
      return;
    }
    const error = AgentError.fromUnknown(thrown, 'PROVIDER_ERROR').toJSON();
    const partial = this.#call?.reply;
    this.#call = undefined;
    if (partial !== undefined && (partial.text !== '' || partial.reasoning !== '')) {
      // Partial output of a failed reply is kept, marked incomplete (vercel/ai #6699 lost it).
      // Calls of a failed reply never ran: the stored reply drops them so none lacks a result.
      partial.calls.length = 0;
      yield* await this.#records.storeReply(partial, 'error');
      this.#records.append({ role: 'system', content: this.#state.runtime.config.failedNote });
    }
    yield this.#stamp.stamp({ type: 'Error', error, fatal: true });
    await this.#turnEnd();
    this.settled = true;
    this.#control.finish({ state: 'failed', summary, error });
    yield this.#stamp.stamp({ type: 'TurnComplete', status: 'failed', error, ...summary });
  }

  /** A stopped turn's end: the partial reply kept, unanswered calls cancelled, TurnCancelled. */
  async cancelledEvents(): Promise<AgentEvent[]> {
    const events: AgentEvent[] = [];
    const partial = this.#call?.reply;
    this.#call = undefined;
    if (partial !== undefined) {
      events.push(...(await this.#records.storeReply(partial, 'cancel')));
      this.#unanswered = partial.calls;
    }
    if (this.#unanswered.length > 0) {
      const outcomes = this.#unanswered.map(cancelledOutcome);
      for (const [index, call] of this.#unanswered.entries()) {
        events.push(this.#stamp.stamp(startEvent(call)));
        events.push(this.#stamp.stamp(endEvent(outcomes[index] ?? cancelledOutcome(call))));
      }
      events.push(...(await this.#records.storeResults(outcomes)));
      this.#unanswered = [];
    }
    const last = this.#state.context.messages.findLast((message) => message.role === 'assistant');
    if (last?.role === 'assistant' && last.status === 'incomplete')
      this.#records.append({ role: 'system', content: this.#state.runtime.config.interruptedNote });
    await this.#turnEnd();
    this.settled = true;
    this.#control.finish({ state: 'cancelled', summary: this.#summary });
    events.push(this.#stamp.stamp({ type: 'TurnCancelled', ...this.#summary }));
    return events;
  }

  /**
   * TurnEnd (spec §3.6). Its Abort means "do not remember this turn" (decision 0005): the turn's
   * messages are left out of memory extraction, at the checkpoint and at close. The turn's outcome
   * and records stand.
   */
  async #turnEnd(): Promise<void> {
    if (!this.#started) return;
    const { runtime, sessionId } = this.#state;
    const ended = await runtime.hooks.run('TurnEnd', {
      sessionId,
      turnId: this.#control.turnId,
      assistantOutput: this.#summary.output,
    });
    if (ended.aborted === undefined) return;
    const added = this.#records.added;
    this.#state.unextracted = this.#state.unextracted.filter((message) => !added.has(message));
    runtime.logger.info(
      {
        sessionId,
        turnId: this.#control.turnId,
        pluginId: ended.aborted.pluginId,
        reason: ended.aborted.reason,
      },
      'TurnEnd aborted by a plugin: this turn is left out of memory extraction',
    );
  }

  async #compactAfterOverflow(
    overflow: NonNullable<ModelCall['outcome']['overflow']>,
  ): Promise<AgentEvent[]> {
    const modelId = this.#state.runtime.model.model.id;
    if (this.#overflowRetried) {
      throw new AgentError(
        'PROVIDER_ERROR',
        `The request still exceeds the context window of '${modelId}' after compaction: ${overflow.message}`,
        { retryable: false, details: { reason: 'context_length_exceeded' } },
      );
    }
    this.#overflowRetried = true;
    const events = await this.#compact({
      fixedTokens: this.#fixedTokens + this.#records.imageTokens,
      ...(overflow.limit === undefined ? {} : { limit: overflow.limit }),
      ...(overflow.requested === undefined ? {} : { requested: overflow.requested }),
    });
    if (events === undefined) {
      throw new AgentError(
        'COMPACT_ERROR',
        `The request exceeds the context window of '${modelId}' and compaction could not make it small enough: ${overflow.message}`,
        { details: { reason: 'context_length_exceeded' } },
      );
    }
    return events;
  }

  async #compact(overflow?: CompactRequest['overflow']): Promise<AgentEvent[] | undefined> {
    const { runtime, context, sessionId } = this.#state;
    const result = await runtime.compactor.compact({
      context,
      sessionModel: runtime.model.model,
      sessionId,
      signal: this.#signal,
      ...(overflow === undefined ? {} : { overflow }),
    });
    if (result === undefined) return undefined;
    const warnings = await this.#records.persist({
      type: 'metadata',
      kind: 'compaction',
      turnId: this.#control.turnId,
      ...(result.summary === undefined ? {} : { summary: result.summary }),
      keptFrom: result.plan.keptFrom,
      keptUserMessages: result.plan.keptUserMessages,
    });
    return [
      ...warnings,
      this.#stamp.stamp({
        type: 'ContextCompacted',
        strategy: result.strategy,
        tokensBefore: result.tokensBefore,
        tokensAfter: result.tokensAfter,
        messagesRemoved: result.messagesRemoved,
      }),
    ];
  }
}

/** Whether tool-call arguments are a whole JSON object: a call cut off mid-arguments is not. */
function isJsonObject(raw: string): boolean {
  if (raw.trim() === '') return true;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
