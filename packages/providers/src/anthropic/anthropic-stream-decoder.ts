import { AgentError } from '@youyou/agent';
import type { ChatEvent, FinishReason, Usage } from '@youyou/agent';
import { pushDelta, streamErrorEvent } from '../http/index.ts';
import type { StreamDecoder } from '../http/index.ts';
import { StringSlotTemplate, findStringSlot } from '../json-template/index.ts';
import type { AnthropicReplyMetadata, ThinkingBlock } from './thinking-metadata.ts';

type BlockState =
  | { type: 'text' }
  | { type: 'tool_use'; id: string; name: string; json: string; initialInput: unknown }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'other' };

type Fields = Record<string, unknown>;

/** A learned `content_block_delta` shape: its block index and delta type are part of the shape. */
interface DeltaSlot {
  template: StringSlotTemplate;
  index: number;
  deltaType: string;
  key: string;
}

/** The string field each delta type carries. */
const DELTA_KEYS: Readonly<Record<string, string>> = {
  text_delta: 'text',
  thinking_delta: 'thinking',
  input_json_delta: 'partial_json',
};

const STOP_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'refusal',
};

function fields(value: unknown): Fields {
  return typeof value === 'object' && value !== null ? (value as Fields) : {};
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * Decodes a Messages API stream: `text_delta` → text, `thinking_delta` → reasoning (the
 * signature and any redacted thinking are kept for the next request in `done.providerMetadata`),
 * `tool_use` blocks assembled from `input_json_delta` and emitted before `done`, usage
 * from `message_start` and `message_delta`, `message_stop` → done. An `error` event ends the
 * stream with an error event (or the context-length signal); `ping` and unknown events are
 * ignored, as the API's versioning policy asks.
 *
 * @example
 * const decoder = new AnthropicStreamDecoder('anthropic', 'claude-sonnet-4-5');
 */
export class AnthropicStreamDecoder implements StreamDecoder {
  readonly #providerId: string;
  readonly #serverModel: string;
  #finished = false;
  #blocks: (BlockState | undefined)[] = [];
  #finishedCalls: Extract<BlockState, { type: 'tool_use' }>[] = [];
  #inputTokens = 0;
  #cacheReadTokens: number | undefined;
  #cacheCreationTokens = 0;
  #outputTokens = 0;
  #thinkingTokens: number | undefined;
  #sawUsage = false;
  #stopReason: FinishReason | undefined;
  readonly #slots: DeltaSlot[] = [];

  constructor(providerId: string, serverModel: string) {
    this.#providerId = providerId;
    this.#serverModel = serverModel;
  }

  get finished(): boolean {
    return this.#finished;
  }

  decode(event: string, data: string, out: ChatEvent[]): void {
    if (this.#finished) return;
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
      this.#applyDelta(slot.index, slot.deltaType, value, out);
      return;
    }
    let payload: Fields;
    try {
      payload = fields(JSON.parse(data));
    } catch (error) {
      this.#fail(
        out,
        `the server sent an event that is not valid JSON: ${JSON.stringify(data.slice(0, 120))}`,
        error,
      );
      return;
    }
    const type = typeof payload['type'] === 'string' ? payload['type'] : event;
    switch (type) {
      case 'content_block_delta': {
        const index = count(payload['index']) ?? 0;
        const delta = fields(payload['delta']);
        this.#learnSlot(data, index, delta);
        this.#delta(index, delta, out);
        break;
      }
      case 'content_block_start':
        this.#start(count(payload['index']) ?? this.#blocks.length, fields(payload['content_block']), out);
        break;
      case 'content_block_stop':
        this.#stop(count(payload['index']) ?? this.#blocks.length - 1);
        break;
      case 'message_start':
        this.#readUsage(fields(fields(payload['message'])['usage']));
        break;
      case 'message_delta': {
        const reason = fields(payload['delta'])['stop_reason'];
        if (typeof reason === 'string') this.#stopReason = STOP_REASONS[reason] ?? 'other';
        this.#readUsage(fields(payload['usage']));
        break;
      }
      case 'message_stop':
        this.#complete(out);
        break;
      case 'error':
        this.#error(payload, out);
        break;
      default:
        break;
    }
  }

  #error(payload: Fields, out: ChatEvent[]): void {
    const error = fields(payload['error']);
    out.push(
      streamErrorEvent(this.#providerId, {
        ...(typeof error['message'] === 'string' ? { message: error['message'] } : {}),
        type: error['type'],
      }),
    );
    this.#finished = true;
  }

  /**
   * A whole Messages reply (a server or proxy that ignored `stream: true`), read as the events it
   * would have streamed: its usage, each content block started and stopped, its stop reason.
   */
  decodeComplete(body: string, out: ChatEvent[]): void {
    let reply: Fields;
    try {
      const parsed = JSON.parse(body) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('not an object');
      reply = parsed as Fields;
    } catch (error) {
      this.#fail(
        out,
        `the server answered with a body that is neither a stream nor a JSON reply: ${JSON.stringify(body.slice(0, 120))}`,
        error,
      );
      return;
    }
    if (reply['type'] === 'error') {
      this.#error(reply, out);
      return;
    }
    this.#readUsage(fields(reply['usage']));
    const content = Array.isArray(reply['content']) ? (reply['content'] as unknown[]) : [];
    content.forEach((block, index) => {
      this.#start(index, fields(block), out);
      this.#stop(index);
    });
    const reason = reply['stop_reason'];
    this.#stopReason = typeof reason === 'string' ? (STOP_REASONS[reason] ?? 'other') : 'stop';
    this.#complete(out);
  }

  end(out: ChatEvent[]): void {
    if (this.#finished) return;
    if (this.#stopReason !== undefined) {
      this.#complete(out);
      return;
    }
    this.#fail(out, 'the response stream ended before the reply was complete.', undefined, true);
  }

  /**
   * Learns the shape of a text, thinking or tool-input delta, so the deltas after it, which share
   * it but for the string, are read without parsing (see `StringSlotTemplate`).
   */
  #learnSlot(data: string, index: number, delta: Fields): void {
    const deltaType = delta['type'];
    if (typeof deltaType !== 'string') return;
    const key = DELTA_KEYS[deltaType];
    if (key === undefined || typeof delta[key] !== 'string') return;
    const position = findStringSlot(data, key);
    if (position === undefined) return;
    let slot = this.#slots.find((candidate) => candidate.deltaType === deltaType);
    if (slot === undefined) {
      slot = { template: new StringSlotTemplate(), index, deltaType, key };
      this.#slots.push(slot);
    }
    slot.template.learn(data, position);
    slot.index = index;
  }

  #start(index: number, block: Fields, out: ChatEvent[]): void {
    switch (block['type']) {
      case 'text': {
        this.#blocks[index] = { type: 'text' };
        const initial = text(block['text']);
        pushDelta(out, 'text_delta', initial);
        break;
      }
      case 'tool_use':
        this.#blocks[index] = {
          type: 'tool_use',
          id: text(block['id']),
          name: text(block['name']),
          json: '',
          initialInput: block['input'],
        };
        break;
      case 'thinking': {
        const thinking = text(block['thinking']);
        this.#blocks[index] = { type: 'thinking', thinking, signature: text(block['signature']) };
        pushDelta(out, 'reasoning_delta', thinking);
        break;
      }
      case 'redacted_thinking':
        this.#blocks[index] = { type: 'redacted_thinking', data: text(block['data']) };
        break;
      default:
        this.#blocks[index] = { type: 'other' };
        break;
    }
  }

  #delta(index: number, delta: Fields, out: ChatEvent[]): void {
    const type = delta['type'];
    if (typeof type !== 'string') return;
    const key = type === 'signature_delta' ? 'signature' : DELTA_KEYS[type];
    if (key !== undefined) this.#applyDelta(index, type, text(delta[key]), out);
  }

  #applyDelta(index: number, type: string, value: string, out: ChatEvent[]): void {
    const block = this.#blocks[index];
    switch (type) {
      case 'text_delta':
        pushDelta(out, 'text_delta', value);
        break;
      case 'thinking_delta':
        if (block?.type === 'thinking') block.thinking += value;
        pushDelta(out, 'reasoning_delta', value);
        break;
      case 'signature_delta':
        if (block?.type === 'thinking') block.signature += value;
        break;
      case 'input_json_delta':
        if (block?.type === 'tool_use') block.json += value;
        break;
      default:
        break;
    }
  }

  /** A finished `tool_use` block: held until the stop reason is known (see `#emitToolCalls`). */
  #stop(index: number): void {
    const block = this.#blocks[index];
    if (block?.type === 'tool_use') this.#finishedCalls.push(block);
  }

  /**
   * Emits the finished calls before `done`. A reply cut off at `max_tokens` keeps each call's
   * input exactly as far as it came (no `{}` stands in for input that never arrived), so a
   * truncated call is recognisable and never run with made-up arguments.
   */
  #emitToolCalls(out: ChatEvent[]): void {
    const truncated = this.#stopReason === 'length';
    for (const block of this.#finishedCalls) {
      let input = block.json;
      if (input.trim().length === 0 && !truncated) {
        const initial = block.initialInput;
        input = typeof initial === 'object' && initial !== null ? JSON.stringify(initial) : '{}';
      }
      out.push({ type: 'tool_call', callId: block.id, toolName: block.name, arguments: input });
    }
    this.#finishedCalls = [];
  }

  #readUsage(usage: Fields): void {
    const input = count(usage['input_tokens']);
    const output = count(usage['output_tokens']);
    const cacheRead = count(usage['cache_read_input_tokens']);
    const cacheCreation = count(usage['cache_creation_input_tokens']);
    if (input !== undefined) this.#inputTokens = input;
    if (output !== undefined) this.#outputTokens = output;
    if (cacheRead !== undefined) this.#cacheReadTokens = cacheRead;
    if (cacheCreation !== undefined) this.#cacheCreationTokens = cacheCreation;
    // Thinking counted apart from the visible reply (`output_tokens_details.thinking_tokens`).
    const thinking = count(fields(usage['output_tokens_details'])['thinking_tokens']);
    if (thinking !== undefined) this.#thinkingTokens = thinking;
    if (input !== undefined || output !== undefined) this.#sawUsage = true;
  }

  #complete(out: ChatEvent[]): void {
    this.#emitToolCalls(out);
    const done: ChatEvent = { type: 'done' };
    if (this.#sawUsage) {
      const usage: Usage = {
        // The API counts cached input apart from `input_tokens`; the agent wants the whole prompt.
        inputTokens: this.#inputTokens + (this.#cacheReadTokens ?? 0) + this.#cacheCreationTokens,
        outputTokens: this.#outputTokens,
      };
      if (this.#cacheReadTokens !== undefined) usage.cachedInputTokens = this.#cacheReadTokens;
      if (this.#cacheCreationTokens > 0) usage.cacheWriteTokens = this.#cacheCreationTokens;
      if (this.#thinkingTokens !== undefined) usage.reasoningTokens = this.#thinkingTokens;
      done.usage = usage;
    }
    if (this.#stopReason !== undefined) done.finishReason = this.#stopReason;
    const thinking: ThinkingBlock[] = [];
    for (const block of this.#blocks) {
      if (block?.type === 'thinking') {
        thinking.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
      } else if (block?.type === 'redacted_thinking') {
        thinking.push({ type: 'redacted_thinking', data: block.data });
      }
    }
    if (thinking.length > 0) {
      const metadata: AnthropicReplyMetadata = { anthropic: { model: this.#serverModel, thinking } };
      done.providerMetadata = metadata;
    }
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
