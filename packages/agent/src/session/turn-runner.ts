import type { UserInput } from '../content/content.ts';
import { estimateTextTokens } from '../context/token-estimate.ts';
import { AgentError } from '../errors/index.ts';
import type { AgentEvent, AgentEventBody, TurnSummary } from '../events/agent-event.ts';
import type { ChatRequest, FinishReason, ToolCallRequest, UserMessage } from '../provider/index.ts';
import type { ToolCallOutcome } from '../tools/tool-dispatcher.ts';
import { FAILED_NOTE, INTERRUPTED_NOTE } from './rebuild-context.ts';
import type { SessionRecordInit } from './session-record.ts';
import { appendMessage, type SessionState } from './session-runtime.ts';
import { cancelledOutcome, endEvent, runToolBatch } from './tool-batch.ts';
import { Reply, type StreamOutcome } from './model-stream.ts';
import type { TurnControl, TurnLoop } from './turn.ts';
import { prepareInput, skillMessage } from './turn-input.ts';

const TITLE_LENGTH = 80;

/**
 * The turn loop (spec §4.1): check the input, TurnStart, then model ↔ tools until the model stops
 * calling tools — compacting when the estimate passes the threshold or the provider overflows,
 * persisting every message — and end with TurnComplete or TurnCancelled. Events are produced as the
 * consumer pulls them; the text-delta path is kept flat because it runs per token.
 */
export async function* runTurn(state: SessionState, input: UserInput, control: TurnControl): TurnLoop {
  const { runtime, context, sessionId } = state;
  const { turnId, signal } = control;
  const { config, dispatcher, hooks, model } = runtime;
  const summary: TurnSummary = {
    output: '',
    toolCalls: 0,
    modelCalls: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
  };
  const delta = (type: 'TextDelta' | 'ReasoningDelta', text: string): AgentEvent => ({
    type,
    text,
    sessionId,
    turnId,
    timestamp: Date.now(),
    sequence: state.sequence++,
  });
  const envelope = (body: AgentEventBody): AgentEvent => ({
    ...body,
    sessionId,
    turnId,
    timestamp: Date.now(),
    sequence: state.sequence++,
  });
  /** Persists records; a storage failure becomes a warning event and the records stay queued. */
  const persist = async (...records: SessionRecordInit[]): Promise<AgentEvent[]> => {
    const error = await state.writer.write(...records);
    return error === undefined ? [] : [envelope({ type: 'Error', error: error.toJSON(), fatal: false })];
  };
  const storeReply = (
    reply: Reply,
    interruptedBy?: 'cancel' | 'error',
    providerMetadata?: Readonly<Record<string, unknown>>,
  ) => {
    appendMessage(state, {
      role: 'assistant',
      content: reply.text,
      ...(reply.reasoning === '' ? {} : { reasoning: reply.reasoning }),
      toolCalls: reply.calls,
      status: interruptedBy === undefined ? 'complete' : 'incomplete',
      ...(providerMetadata === undefined ? {} : { providerMetadata }),
    });
    return persist(
      {
        type: 'assistant_message',
        turnId,
        content: reply.text,
        ...(reply.reasoning === '' ? {} : { reasoning: reply.reasoning }),
        status: interruptedBy === undefined ? 'complete' : 'incomplete',
        ...(interruptedBy === undefined ? {} : { interruptedBy }),
        ...(providerMetadata === undefined ? {} : { providerMetadata }),
      },
      ...reply.calls.map((call): SessionRecordInit => ({ type: 'tool_call', turnId, ...call })),
    );
  };
  const storeResults = (outcomes: readonly ToolCallOutcome[]) => {
    for (const outcome of outcomes) {
      appendMessage(state, {
        role: 'tool',
        callId: outcome.callId,
        toolName: outcome.toolName,
        content: outcome.content,
        isError: outcome.isError,
      });
    }
    return persist(
      ...outcomes.map((outcome): SessionRecordInit => ({
        type: 'tool_result',
        turnId,
        callId: outcome.callId,
        toolName: outcome.toolName,
        content: outcome.content,
        isError: outcome.isError,
        durationMs: outcome.durationMs,
        ...(outcome.metadata === undefined ? {} : { metadata: outcome.metadata }),
      })),
    );
  };
  const compact = async (): Promise<AgentEvent[] | undefined> => {
    const result = await runtime.compactor.compact({ context, sessionModel: model.model, sessionId, signal });
    if (result === undefined) return undefined;
    const warnings = await persist({
      type: 'metadata',
      kind: 'compaction',
      turnId,
      ...(result.summary === undefined ? {} : { summary: result.summary }),
      keptFrom: result.plan.keptFrom,
      keptUserMessages: result.plan.keptUserMessages,
    });
    return [
      ...warnings,
      envelope({
        type: 'ContextCompacted',
        strategy: result.strategy,
        tokensBefore: result.tokensBefore,
        tokensAfter: result.tokensAfter,
        messagesRemoved: result.messagesRemoved,
      }),
    ];
  };

  let settled = false;
  /** TurnEnd pairs with TurnStart: a turn refused before TurnStart fires neither. */
  let turnStarted = false;
  /** The reply being streamed, kept so every way out can still store what arrived. */
  let partial: Reply | undefined;
  /** Why the last model call ended (spec-external: the provider's `done.finishReason`). */
  let finishReason: FinishReason | undefined;
  /** Calls of a stored reply that have no result yet. */
  let unanswered: ToolCallRequest[] = [];

  const cancelledEvents = async (): Promise<AgentEvent[]> => {
    const events: AgentEvent[] = [];
    if (partial !== undefined) {
      events.push(...(await storeReply(partial, 'cancel')));
      unanswered = partial.calls;
      partial = undefined;
    }
    if (unanswered.length > 0) {
      const outcomes = unanswered.map(cancelledOutcome);
      for (const [index, call] of unanswered.entries()) {
        events.push(
          envelope({
            type: 'ToolCallStart',
            callId: call.callId,
            toolName: call.toolName,
            arguments: call.arguments,
          }),
        );
        events.push(envelope(endEvent(outcomes[index] ?? cancelledOutcome(call))));
      }
      events.push(...(await storeResults(outcomes)));
      unanswered = [];
    }
    const last = context.messages.findLast((message) => message.role === 'assistant');
    if (last?.role === 'assistant' && last.status === 'incomplete')
      appendMessage(state, { role: 'system', content: INTERRUPTED_NOTE });
    if (turnStarted) await hooks.run('TurnEnd', { sessionId, turnId, assistantOutput: summary.output });
    settled = true;
    control.finish({ state: 'cancelled', summary });
    events.push(envelope({ type: 'TurnCancelled', ...summary }));
    return events;
  };

  try {
    // 1. Input: checked before anything is stored or sent.
    const prepared = await prepareInput(input, runtime);

    // 2. TurnStart may rewrite the user's text and add dynamic prompt sections.
    const started = await hooks.run('TurnStart', {
      sessionId,
      turnId,
      userInput: prepared.text,
      dynamicSections: [],
    });
    turnStarted = started.aborted === undefined;
    if (started.aborted !== undefined) {
      throw new AgentError(
        'HOOK_ABORTED',
        `Plugin '${started.aborted.pluginId}' stopped the turn: ${started.aborted.reason}`,
        {
          details: { pluginId: started.aborted.pluginId },
        },
      );
    }
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
    const systemPrompt = runtime.prompt.build({ memories: state.memories, dynamicSections });
    state.systemPrompt = systemPrompt;
    const fixedTokens =
      estimateTextTokens(systemPrompt.text) + estimateTextTokens(JSON.stringify(dispatcher.definitions));
    const compactAt = config.compactThreshold * model.model.contextWindow;

    // 3. Skill prompts, then the user's message, enter the context and the log.
    const records: SessionRecordInit[] = [];
    for (const { skill, arguments: skillArguments } of prepared.skills) {
      const text = skillMessage(skill, skillArguments);
      appendMessage(state, { role: 'system', content: text });
      records.push({ type: 'system_message', turnId, kind: 'skill', content: text });
    }
    const userMessage: UserMessage = {
      role: 'user',
      content:
        content.length > 0
          ? content
          : [{ type: 'text', text: prepared.skills.map(({ skill }) => `/${skill.name}`).join(' ') }],
    };
    appendMessage(state, userMessage);
    records.push({ type: 'user_message', turnId, content: userMessage.content });
    if (!state.titled) {
      state.titled = true;
      const title = prepared.text.replace(/\s+/g, ' ').trim().slice(0, TITLE_LENGTH);
      records.push({
        type: 'metadata',
        kind: 'title',
        title: title === '' ? (prepared.skills[0]?.skill.name ?? 'Untitled') : title,
      });
    }
    yield* await persist(...records);

    // 4. Model ↔ tools.
    let overflowRetried = false;
    while (!signal.aborted) {
      if (fixedTokens + context.estimatedTokens > compactAt) {
        const events = await compact();
        if (events !== undefined) yield* events;
      }
      const request: ChatRequest = {
        model: model.model.id,
        systemPrompt: systemPrompt.text,
        messages: context.messages,
        tools: dispatcher.definitions,
        ...(config.temperature === undefined ? {} : { temperature: config.temperature }),
        ...(config.maxTokens === undefined ? {} : { maxTokens: config.maxTokens }),
        ...(config.reasoningEffort === undefined ? {} : { reasoningEffort: config.reasoningEffort }),
      };
      summary.modelCalls++;
      const reply = new Reply();
      partial = reply;
      // The Turn streams this call straight from the provider and resumes here with the outcome.
      const outcome: StreamOutcome =
        (yield {
          type: 'model_stream',
          provider: model.provider,
          request,
          reply,
          signal,
          firstChunkTimeoutMs: config.providerFirstChunkTimeoutMs,
          chunkTimeoutMs: config.providerChunkTimeoutMs,
          delta,
          refusal: (text) => envelope({ type: 'TextDelta', text, refusal: true }),
          retrying: (error, attempt, delayMs) =>
            envelope({
              type: 'Error',
              fatal: false,
              error: { ...error.toJSON(), details: { ...error.details, attempt, retryInMs: delayMs } },
            }),
        }) ?? {};
      const { failure, overflow, providerMetadata } = outcome;
      finishReason =
        reply.refused && (outcome.finishReason === undefined || outcome.finishReason === 'stop')
          ? 'refusal'
          : outcome.finishReason;
      if (outcome.usage !== undefined) {
        summary.usage.inputTokens += outcome.usage.inputTokens;
        summary.usage.outputTokens += outcome.usage.outputTokens;
      }
      summary.output += reply.text;
      if (signal.aborted) break;

      if (overflow !== undefined && reply.text === '' && reply.calls.length === 0) {
        // The fallback trigger (spec §4.2): compact, then retry this request once.
        partial = undefined;
        summary.modelCalls--;
        if (overflowRetried) {
          throw new AgentError(
            'PROVIDER_ERROR',
            `The request still exceeds the context window of '${model.model.id}' after compaction: ${overflow}`,
            {
              retryable: false,
              details: { reason: 'context_length_exceeded' },
            },
          );
        }
        overflowRetried = true;
        const events = await compact();
        if (events === undefined) {
          throw new AgentError(
            'COMPACT_ERROR',
            `The request exceeds the context window of '${model.model.id}' and nothing could be compacted: ${overflow}`,
          );
        }
        yield* events;
        continue;
      }
      if (failure !== undefined) throw failure;
      if (overflow !== undefined)
        throw new AgentError('PROVIDER_ERROR', overflow, { details: { reason: 'context_length_exceeded' } });

      // A complete reply: store it with its calls, then run them.
      partial = undefined;
      unanswered = reply.calls;
      yield* await storeReply(reply, undefined, providerMetadata);
      if (reply.calls.length === 0) break;

      const allowed = Math.max(0, config.maxToolCallsPerTurn - summary.toolCalls);
      const runnable = reply.calls.slice(0, allowed);
      const refused = reply.calls.slice(allowed);
      const outcomes = yield* runToolBatchEvents(runnable);
      for (const call of refused) {
        const outcome = limitOutcome(call, config.maxToolCallsPerTurn);
        outcomes.push(outcome);
        yield envelope({
          type: 'ToolCallStart',
          callId: call.callId,
          toolName: call.toolName,
          arguments: call.arguments,
        });
        yield envelope(endEvent(outcome));
      }
      summary.toolCalls += runnable.length;
      unanswered = [];
      yield* await storeResults(outcomes);
      if (refused.length > 0) {
        throw new AgentError(
          'MAX_TOOL_CALLS_EXCEEDED',
          `The turn reached its limit of ${config.maxToolCallsPerTurn} tool calls and was ended; ${refused.length} call(s) did not run.`,
          { details: { limit: config.maxToolCallsPerTurn, refused: refused.length } },
        );
      }
    }

    // 5. How it ended.
    if (signal.aborted) {
      yield* await cancelledEvents();
      return;
    }
    await hooks.run('TurnEnd', { sessionId, turnId, assistantOutput: summary.output });
    state.completedTurns++;
    settled = true;
    control.finish({ state: 'completed', summary });
    yield envelope({
      type: 'TurnComplete',
      status: 'completed',
      ...(finishReason === undefined ? {} : { finishReason }),
      ...summary,
    });
  } catch (thrown) {
    if (signal.aborted && !(thrown instanceof AgentError && thrown.code === 'MAX_TOOL_CALLS_EXCEEDED')) {
      yield* await cancelledEvents();
      return;
    }
    const error = AgentError.fromUnknown(thrown, 'PROVIDER_ERROR').toJSON();
    const events: AgentEvent[] = [];
    if (partial !== undefined && (partial.text !== '' || partial.reasoning !== '')) {
      // Partial output of a failed reply is kept, marked incomplete (vercel/ai #6699 lost it).
      // Calls of a failed reply never ran: the stored reply drops them so none lacks a result.
      partial.calls.length = 0;
      events.push(...(await storeReply(partial, 'error')));
      appendMessage(state, { role: 'system', content: FAILED_NOTE });
    }
    partial = undefined;
    yield* events;
    yield envelope({ type: 'Error', error, fatal: true });
    if (turnStarted) await hooks.run('TurnEnd', { sessionId, turnId, assistantOutput: summary.output });
    settled = true;
    control.finish({ state: 'failed', summary, error });
    yield envelope({ type: 'TurnComplete', status: 'failed', error, ...summary });
  } finally {
    if (!settled) {
      // The consumer stopped iterating early: a cancel whose events nobody will read.
      control.cancel();
      await cancelledEvents();
    }
  }

  async function* runToolBatchEvents(
    calls: readonly ToolCallRequest[],
  ): AsyncGenerator<AgentEvent, ToolCallOutcome[]> {
    const batch = runToolBatch(dispatcher, calls, {
      sessionId,
      turnId,
      cwd: runtime.cwd,
      home: runtime.home,
      signal,
    });
    for (;;) {
      const next = await batch.next();
      if (next.done === true) return next.value;
      yield envelope(next.value);
    }
  }
}

function limitOutcome(call: ToolCallRequest, limit: number): ToolCallOutcome {
  return {
    callId: call.callId,
    toolName: call.toolName,
    arguments: undefined,
    content: `Error [MAX_TOOL_CALLS_EXCEEDED]: This turn reached its limit of ${limit} tool calls, so this call was not run and the turn was ended. Tell the user what is done and what remains.`,
    isError: true,
    durationMs: 0,
    errorCode: 'MAX_TOOL_CALLS_EXCEEDED',
  };
}
