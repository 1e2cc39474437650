import { AgentError } from '@youyou/agent';
import type { ChatEvent, FinishReason, Usage } from '@youyou/agent';
import { pushDelta, readServerError, streamErrorEvent } from '../http/index.ts';
import type { StreamDecoder } from '../http/index.ts';
import { StringSlotTemplate, findStringSlot } from '../json-template/index.ts';

/** A learned chunk shape whose one string value is a text, reasoning or tool-argument delta. */
interface DeltaSlot {
  kind: 'text' | 'reasoning' | 'arguments';
  template: StringSlotTemplate;
  toolIndex: number;
}

interface PendingToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** The fields of a `chat.completion.chunk` this decoder reads; everything is optional on the wire. */
interface ChunkShape {
  error?: unknown;
  choices?: unknown;
  usage?: unknown;
}

interface ChoiceShape {
  index?: unknown;
  delta?: {
    content?: unknown;
    reasoning_content?: unknown;
    reasoning?: unknown;
    refusal?: unknown;
    tool_calls?: unknown;
  } | null;
  finish_reason?: unknown;
  usage?: unknown;
}

interface ToolCallFragment {
  index?: unknown;
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown } | null;
}

const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
  content_filter: 'content_filter',
};

function numberField(record: Record<string, unknown>, key: string): number | undefined {
  const value = record[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function nested(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = record[key];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/**
 * Reads Chat Completions usage, including the cached-input counts DeepSeek
 * (`prompt_cache_hit_tokens`) and Moonshot (`cached_tokens`) report their own way.
 */
export function readOpenAIUsage(value: unknown): Usage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const inputTokens = numberField(record, 'prompt_tokens');
  const outputTokens = numberField(record, 'completion_tokens');
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  const usage: Usage = { inputTokens: inputTokens ?? 0, outputTokens: outputTokens ?? 0 };
  const reasoningTokens = numberField(nested(record, 'completion_tokens_details'), 'reasoning_tokens');
  if (reasoningTokens !== undefined) usage.reasoningTokens = reasoningTokens;
  const cachedInputTokens =
    numberField(nested(record, 'prompt_tokens_details'), 'cached_tokens') ??
    numberField(record, 'prompt_cache_hit_tokens') ??
    numberField(record, 'cached_tokens');
  if (cachedInputTokens !== undefined) usage.cachedInputTokens = cachedInputTokens;
  return usage;
}

/**
 * Decodes a Chat Completions stream: `content` → text, `reasoning_content` or `reasoning` →
 * reasoning, `tool_calls` fragments assembled by `index` (a fragment with a new `id` at a used
 * index starts a new call, for servers that number every call 0), `usage` from the final chunk,
 * `refusal` → refusal deltas (and `finishReason: 'refusal'`), `[DONE]` → done. An `error` object
 * in a chunk, an `error` event, or a chunk that is not JSON, ends the stream with an error event.
 *
 * @example
 * const decoder = new OpenAIStreamDecoder('local');
 * const out: ChatEvent[] = [];
 * decoder.decode('message', '{"choices":[{"delta":{"content":"Hi"}}]}', out);
 * // out: [{ type: 'text_delta', text: 'Hi' }]
 */
export class OpenAIStreamDecoder implements StreamDecoder {
  readonly #providerId: string;
  #finished = false;
  #toolCalls: PendingToolCall[] = [];
  #toolCallsEmitted = false;
  #finishReason: FinishReason | undefined;
  #refused = false;
  #usage: Usage | undefined;
  readonly #slots: DeltaSlot[] = [
    { kind: 'text', template: new StringSlotTemplate(), toolIndex: -1 },
    { kind: 'reasoning', template: new StringSlotTemplate(), toolIndex: -1 },
    { kind: 'arguments', template: new StringSlotTemplate(), toolIndex: -1 },
  ];

  constructor(providerId: string) {
    this.#providerId = providerId;
  }

  get finished(): boolean {
    return this.#finished;
  }

  decode(event: string, data: string, out: ChatEvent[]): void {
    if (this.#finished) return;
    if (data === '[DONE]') {
      this.#complete(out);
      return;
    }
    if (event === 'error') {
      // `event: error` (OpenRouter) or a bare `error:` line (older llama.cpp): JSON or plain text.
      out.push(streamErrorEvent(this.#providerId, readServerError(data)));
      this.#finished = true;
      return;
    }
    if (this.#readBySlot(data, out)) return;
    let chunk: ChunkShape;
    try {
      chunk = JSON.parse(data) as ChunkShape;
    } catch (error) {
      this.#fail(out, `the server sent a stream chunk that is not valid JSON: ${excerpt(data)}`, error);
      return;
    }
    if (typeof chunk !== 'object' || chunk === null) {
      this.#fail(out, `the server sent a stream chunk that is not a JSON object: ${excerpt(data)}`);
      return;
    }
    if (chunk.error !== undefined && chunk.error !== null) {
      out.push(streamErrorEvent(this.#providerId, readServerError(chunk)));
      this.#finished = true;
      return;
    }
    this.#learnSlot(chunk, data);
    const choices = chunk.choices;
    if (Array.isArray(choices)) {
      for (const choice of choices as ChoiceShape[]) {
        if (typeof choice !== 'object' || choice === null) continue;
        if (typeof choice.index === 'number' && choice.index !== 0) continue;
        this.#decodeChoice(choice, out);
        if (this.#finished) return;
      }
    }
    if (chunk.usage !== undefined && chunk.usage !== null)
      this.#usage = readOpenAIUsage(chunk.usage) ?? this.#usage;
  }

  /** The fast path: a chunk of a learned shape is read without parsing it (see `StringSlotTemplate`). */
  #readBySlot(data: string, out: ChatEvent[]): boolean {
    const slots = this.#slots;
    for (let position = 0; position < slots.length; position += 1) {
      const slot = slots[position] as DeltaSlot;
      const value = slot.template.read(data);
      if (value === undefined) continue;
      if (position > 0) {
        // The shape that matched is likely to match next: try it first.
        slots.splice(position, 1);
        slots.unshift(slot);
      }
      if (slot.kind === 'arguments') {
        const call = this.#toolCalls[slot.toolIndex];
        if (call === undefined) return false;
        call.arguments += value;
      } else {
        pushDelta(out, slot.kind === 'text' ? 'text_delta' : 'reasoning_delta', value);
      }
      return true;
    }
    return false;
  }

  #slot(kind: DeltaSlot['kind']): DeltaSlot | undefined {
    return this.#slots.find((slot) => slot.kind === kind);
  }

  /**
   * Learns the shape of a chunk whose only effect is one text, reasoning or tool-argument delta,
   * so the chunks after it, which nearly always share it, take the fast path. Called before the
   * chunk is applied, so a tool call's fragment is only learned once its call exists.
   */
  #learnSlot(chunk: ChunkShape, data: string): void {
    if (
      chunk.error != null ||
      chunk.usage != null ||
      !Array.isArray(chunk.choices) ||
      chunk.choices.length !== 1
    )
      return;
    const choice = chunk.choices[0] as ChoiceShape | null;
    if (typeof choice !== 'object' || choice === null) return;
    if ((choice.index !== undefined && choice.index !== 0) || choice.usage != null) return;
    if (typeof choice.finish_reason === 'string' && choice.finish_reason.length > 0) return;
    const delta = choice.delta;
    if (typeof delta !== 'object' || delta === null) return;
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    const pushesReasoning = typeof reasoning === 'string' && reasoning.length > 0;
    const pushesText = typeof delta.content === 'string' && delta.content.length > 0;
    const fragments = delta.tool_calls;
    let slot: DeltaSlot | undefined;
    let key: string;
    let toolIndex = -1;
    if (Array.isArray(fragments)) {
      if (pushesText || pushesReasoning || fragments.length !== 1) return;
      const fragment = fragments[0] as ToolCallFragment | null;
      if (typeof fragment !== 'object' || fragment === null || typeof fragment.index !== 'number') return;
      if (
        (fragment.id !== undefined && fragment.id !== null) ||
        this.#toolCalls[fragment.index] === undefined
      )
        return;
      const fn = fragment.function;
      if (typeof fn !== 'object' || fn === null || typeof fn.arguments !== 'string') return;
      if (fn.name !== undefined && fn.name !== null) return;
      slot = this.#slot('arguments');
      key = 'arguments';
      toolIndex = fragment.index;
    } else if (pushesText && !pushesReasoning) {
      slot = this.#slot('text');
      key = 'content';
    } else if (pushesReasoning && !pushesText) {
      slot = this.#slot('reasoning');
      key = typeof delta.reasoning_content === 'string' ? 'reasoning_content' : 'reasoning';
    } else {
      return;
    }
    const position = findStringSlot(data, key);
    if (slot === undefined || position === undefined) return;
    slot.template.learn(data, position);
    slot.toolIndex = toolIndex;
  }

  end(out: ChatEvent[]): void {
    if (this.#finished) return;
    if (this.#finishReason !== undefined) {
      this.#complete(out);
      return;
    }
    out.push({
      type: 'error',
      error: new AgentError(
        'PROVIDER_ERROR',
        `${this.#providerId}: the response stream ended before the reply was complete.`,
        { retryable: true },
      ),
    });
    this.#finished = true;
  }

  #decodeChoice(choice: ChoiceShape, out: ChatEvent[]): void {
    const delta = choice.delta;
    if (typeof delta === 'object' && delta !== null) {
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (typeof reasoning === 'string') pushDelta(out, 'reasoning_delta', reasoning);
      const content = delta.content;
      if (typeof content === 'string') pushDelta(out, 'text_delta', content);
      // OpenAI streams a refusal in its own field (structured outputs, safety); it is the reply.
      if (typeof delta.refusal === 'string' && delta.refusal.length > 0) {
        this.#refused = true;
        pushDelta(out, 'refusal_delta', delta.refusal);
      }
      if (Array.isArray(delta.tool_calls)) {
        for (const fragment of delta.tool_calls as ToolCallFragment[]) this.#addFragment(fragment);
      }
    }
    if (choice.usage !== undefined && choice.usage !== null) {
      this.#usage = readOpenAIUsage(choice.usage) ?? this.#usage;
    }
    const reason = choice.finish_reason;
    if (typeof reason === 'string' && reason.length > 0) {
      if (reason === 'error') {
        this.#fail(out, 'the server ended the reply with an error', undefined, true);
        return;
      }
      this.#finishReason = FINISH_REASONS[reason] ?? 'other';
      this.#emitToolCalls(out);
    }
  }

  #addFragment(fragment: ToolCallFragment): void {
    if (typeof fragment !== 'object' || fragment === null) return;
    const id = typeof fragment.id === 'string' ? fragment.id : '';
    let index = typeof fragment.index === 'number' ? fragment.index : this.#toolCalls.length - (id ? 0 : 1);
    if (index < 0) index = 0;
    let call = this.#toolCalls[index];
    if (call !== undefined && id.length > 0 && call.id.length > 0 && id !== call.id) {
      index = this.#toolCalls.length;
      call = undefined;
    }
    if (call === undefined) {
      call = { id, name: '', arguments: '' };
      this.#toolCalls[index] = call;
    } else if (call.id.length === 0) {
      call.id = id;
    }
    const fn = fragment.function;
    if (typeof fn === 'object' && fn !== null) {
      if (typeof fn.name === 'string' && call.name.length === 0) call.name = fn.name;
      if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
    }
  }

  /**
   * Emits the assembled calls. A reply cut off at the token limit (`length`) keeps each call's
   * arguments exactly as far as they came, so a truncated call is recognisable (its JSON does not
   * parse, and `done.finishReason` is `length`) and is never run with made-up arguments.
   */
  #emitToolCalls(out: ChatEvent[]): void {
    if (this.#toolCallsEmitted) return;
    this.#toolCallsEmitted = true;
    const truncated = this.#finishReason === 'length';
    this.#toolCalls.forEach((call, index) => {
      if (call === undefined) return;
      out.push({
        type: 'tool_call',
        callId: call.id.length > 0 ? call.id : `call_${index}_${Math.random().toString(36).slice(2, 10)}`,
        toolName: call.name,
        arguments: truncated || call.arguments.trim().length > 0 ? call.arguments : '{}',
      });
    });
  }

  /**
   * A whole `chat.completion` (a server that ignored `stream: true`), read as the one chunk it
   * would have streamed: `message` as the delta, its tool calls numbered, then the end.
   */
  decodeComplete(body: string, out: ChatEvent[]): void {
    let reply: Record<string, unknown>;
    try {
      const parsed = JSON.parse(body) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('not an object');
      reply = parsed as Record<string, unknown>;
    } catch (error) {
      this.#fail(
        out,
        `the server answered with a body that is neither a stream nor a JSON reply: ${excerpt(body)}`,
        error,
      );
      return;
    }
    if (reply['error'] !== undefined && reply['error'] !== null) {
      out.push(streamErrorEvent(this.#providerId, readServerError(reply)));
      this.#finished = true;
      return;
    }
    const choices = Array.isArray(reply['choices']) ? (reply['choices'] as unknown[]) : [];
    const choice = (choices.find(
      (candidate) =>
        typeof candidate === 'object' && candidate !== null && ((candidate as ChoiceShape).index ?? 0) === 0,
    ) ?? {}) as Record<string, unknown>;
    const message = nested(choice, 'message');
    const toolCalls = Array.isArray(message['tool_calls']) ? (message['tool_calls'] as unknown[]) : [];
    const delta = {
      ...message,
      tool_calls: toolCalls.map((call, index) => ({ ...(call as Record<string, unknown>), index })),
    };
    this.#decodeChoice({ delta, finish_reason: choice['finish_reason'] ?? 'stop' }, out);
    if (this.#finished) return;
    if (reply['usage'] !== undefined && reply['usage'] !== null)
      this.#usage = readOpenAIUsage(reply['usage']);
    this.#complete(out);
  }

  #complete(out: ChatEvent[]): void {
    this.#emitToolCalls(out);
    let finishReason = this.#finishReason;
    if (this.#toolCalls.length > 0 && (finishReason === undefined || finishReason === 'stop')) {
      finishReason = 'tool_calls';
    }
    // OpenAI ends a refusal with `stop`: say what it was.
    if (this.#refused && (finishReason === undefined || finishReason === 'stop')) finishReason = 'refusal';
    const done: ChatEvent = { type: 'done' };
    if (this.#usage !== undefined) done.usage = this.#usage;
    if (finishReason !== undefined) done.finishReason = finishReason;
    out.push(done);
    this.#finished = true;
  }

  #fail(out: ChatEvent[], message: string, cause?: unknown, retryable = false): void {
    out.push({
      type: 'error',
      error: new AgentError('PROVIDER_ERROR', `${this.#providerId}: ${message}`, {
        retryable,
        ...(cause === undefined ? {} : { cause }),
      }),
    });
    this.#finished = true;
  }
}

function excerpt(data: string): string {
  return data.length > 120 ? `${JSON.stringify(data.slice(0, 120))}…` : JSON.stringify(data);
}
