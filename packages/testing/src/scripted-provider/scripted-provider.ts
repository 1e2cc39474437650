import {
  AgentError,
  type ChatEvent,
  type ChatOptions,
  type ChatRequest,
  type ModelInfo,
  type ModelProvider,
  type Usage,
} from '@youyou/agent';

/** One step of a scripted reply: a chat event, or a way to misbehave in time. */
export type ScriptStep =
  | ChatEvent
  /** Waits, honouring abort. */
  | { type: 'delay'; ms: number }
  /** Sends nothing more until aborted. */
  | { type: 'hang' }
  /** Sends nothing more, ever, and ignores abort: a provider that stalls for real. */
  | { type: 'stall' }
  /** Throws from the stream, like a provider whose connection broke. */
  | { type: 'throw'; error: unknown };

/** A reply, or a function of the request that returns one (to assert on what was asked). */
export type ScriptedResponse = readonly ScriptStep[] | ((request: ChatRequest) => readonly ScriptStep[]);

export interface ScriptedProviderOptions {
  id?: string;
  models?: readonly ModelInfo[];
}

/** A model with every capability and a window large enough that tests never compact by accident. */
export function scriptedModel(id = 'scripted-model', overrides: Partial<ModelInfo> = {}): ModelInfo {
  return {
    id,
    displayName: `Scripted ${id}`,
    contextWindow: 1_000_000,
    capabilities: { toolUse: true, vision: true, streaming: true, reasoning: true, documents: true },
    ...overrides,
  };
}

/**
 * A fake `ModelProvider` that plays a queue of scripted replies, records every request, and fails
 * loudly on an unexpected request. All core tests use it.
 *
 * @example
 * const provider = new ScriptedProvider().enqueue(
 *   toolCallReply([{ toolName: 'read_file', arguments: { path: 'a.txt' } }]),
 *   textReply('The file says hello.'),
 * );
 */
export class ScriptedProvider implements ModelProvider {
  readonly id: string;
  readonly #models: readonly ModelInfo[];
  readonly #queue: ScriptedResponse[] = [];
  /** Every request received, with its messages copied at the time of the call. */
  readonly requests: ChatRequest[] = [];
  /** The signal of each request, in order: a cancelled or stalled call has its signal aborted. */
  readonly signals: AbortSignal[] = [];
  /** How many streams saw their signal abort while they were still sending. */
  aborted = 0;

  constructor(options: ScriptedProviderOptions = {}) {
    this.id = options.id ?? 'scripted';
    this.#models = options.models ?? [scriptedModel()];
  }

  listModels(): readonly ModelInfo[] {
    return this.#models;
  }

  enqueue(...responses: ScriptedResponse[]): this {
    this.#queue.push(...responses);
    return this;
  }

  /** Replies still queued. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Throws when scripted replies were never requested. */
  assertDone(): void {
    if (this.#queue.length > 0)
      throw new Error(`ScriptedProvider: ${this.#queue.length} scripted repl(ies) were never requested.`);
  }

  async *chat(request: ChatRequest, options: ChatOptions): AsyncGenerator<ChatEvent> {
    this.requests.push({ ...request, messages: structuredClone([...request.messages]) });
    this.signals.push(options.signal);
    const next = this.#queue.shift();
    if (next === undefined) {
      yield {
        type: 'error',
        error: new AgentError(
          'PROVIDER_ERROR',
          `ScriptedProvider: unexpected request #${this.requests.length}; no scripted reply left.`,
          {
            retryable: false,
          },
        ),
      };
      return;
    }
    const steps = typeof next === 'function' ? next(request) : next;
    for (const step of steps) {
      if (options.signal.aborted) {
        this.aborted++;
        return;
      }
      switch (step.type) {
        case 'delay':
          if (!(await sleep(step.ms, options.signal))) {
            this.aborted++;
            return;
          }
          break;
        case 'hang':
          await new Promise<void>((resolve) =>
            options.signal.addEventListener('abort', () => resolve(), { once: true }),
          );
          this.aborted++;
          return;
        case 'stall':
          await new Promise<never>(() => {});
          return;
        case 'throw':
          throw step.error;
        default:
          yield step;
      }
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const DEFAULT_USAGE: Usage = { inputTokens: 10, outputTokens: 5 };

/** A text reply, streamed in chunks of `chunkSize` characters (whole text in one delta by default). */
export function textReply(
  text: string,
  options: { chunkSize?: number; usage?: Usage; reasoning?: string } = {},
): ScriptStep[] {
  const steps: ScriptStep[] = [];
  if (options.reasoning !== undefined) steps.push({ type: 'reasoning_delta', text: options.reasoning });
  const size = options.chunkSize ?? Math.max(1, text.length);
  for (let index = 0; index < text.length; index += size)
    steps.push({ type: 'text_delta', text: text.slice(index, index + size) });
  steps.push({ type: 'done', usage: options.usage ?? DEFAULT_USAGE, finishReason: 'stop' });
  return steps;
}

let callCounter = 0;

/** A reply that calls tools; `arguments` objects are sent as JSON, strings as they are. */
export function toolCallReply(
  calls: readonly { toolName: string; arguments?: Record<string, unknown> | string; callId?: string }[],
  text = '',
): ScriptStep[] {
  return [
    ...(text === '' ? [] : [{ type: 'text_delta', text } as const]),
    ...calls.map((call): ScriptStep => ({
      type: 'tool_call',
      callId: call.callId ?? `call_${++callCounter}`,
      toolName: call.toolName,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    })),
    { type: 'done', usage: DEFAULT_USAGE, finishReason: 'tool_calls' },
  ];
}

/** A reply that fails with PROVIDER_ERROR. */
export function errorReply(
  message: string,
  options: { retryable?: boolean; after?: readonly ScriptStep[] } = {},
): ScriptStep[] {
  return [
    ...(options.after ?? []),
    {
      type: 'error',
      error: new AgentError('PROVIDER_ERROR', message, { retryable: options.retryable ?? true }),
    },
  ];
}

/** A reply saying the request did not fit the model's window. */
export function contextOverflowReply(message = 'maximum context length exceeded'): ScriptStep[] {
  return [{ type: 'context_length_exceeded', message }];
}
