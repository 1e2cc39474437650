/** One step of a scripted streamed reply. Both fake servers render the same steps in their own wire format. */
export type FakeStep =
  /** A text delta (one chunk). */
  | { type: 'text'; text: string }
  /**
   * The model declining: OpenAI streams it in `delta.refusal` (and ends with `stop`); Anthropic
   * streams it as text and ends with `stop_reason: "refusal"`.
   */
  | { type: 'refusal'; text: string }
  /** A reasoning delta: `reasoning_content` (or `reasoning`) for OpenAI, a thinking block for Anthropic. */
  | { type: 'reasoning'; text: string }
  /**
   * A tool call whose arguments arrive in `fragments` pieces (default 3), OpenAI-style by
   * `index` or as Anthropic `input_json_delta`s.
   */
  | {
      type: 'tool_call';
      name: string;
      arguments: string | Readonly<Record<string, unknown>>;
      id?: string;
      fragments?: number;
    }
  /** The usage to report (else a rough estimate is sent). */
  | {
      type: 'usage';
      inputTokens: number;
      outputTokens: number;
      cachedInputTokens?: number;
      /** Anthropic only: `cache_creation_input_tokens`. */
      cacheWriteTokens?: number;
      reasoningTokens?: number;
    }
  /** Waits before the next step: a slow stream. */
  | { type: 'delay'; ms: number }
  /** Text written to the stream exactly as given, e.g. a malformed chunk. */
  | { type: 'raw'; data: string }
  /** An error reported inside the 200 stream (OpenAI-compatible `data: {"error":…}`, Anthropic `event: error`). */
  | { type: 'stream_error'; message: string; errorType?: string; code?: string | number }
  /** The connection dies here: `'reset'` destroys the socket (default), `'end'` ends the body cleanly but early. */
  | { type: 'cut'; mode?: 'reset' | 'end' };

/** The known context-length error bodies, by the server that sends them. */
export type ContextLengthShape =
  | 'openai'
  | 'vllm'
  | 'llama.cpp'
  | 'moonshot'
  | 'anthropic-prompt-too-long'
  | 'anthropic-input-and-max-tokens';

/** A scripted streamed reply. */
export interface FakeStreamReply {
  type: 'stream';
  steps: readonly FakeStep[];
  /**
   * Default: `tool_calls` when the steps call a tool, else `stop` (`refusal` for Anthropic when a
   * step refuses). `length` is Anthropic's `max_tokens`; `content_filter` is OpenAI's only.
   */
  finishReason?: 'stop' | 'tool_calls' | 'length' | 'content_filter';
  /**
   * Answer with one whole JSON reply even though the request asked to stream: a server that
   * ignores `stream: true`. (A request with `stream: false` always gets one.)
   */
  ignoreStream?: boolean;
  /** Write the body in pieces of this many bytes (1 splits every multi-byte character). */
  splitBytes?: number;
  /** Wait this long between steps. */
  stepDelayMs?: number;
  /** OpenAI wire only: the delta field for reasoning; default `reasoning_content`. */
  reasoningField?: 'reasoning_content' | 'reasoning';
}

/** What the fake server answers to one chat request. */
export type FakeReply =
  | FakeStreamReply
  | { type: 'rate_limited'; retryAfterSeconds?: number }
  /** OpenAI-compatible: 503; Anthropic: 529 `overloaded_error`. */
  | { type: 'overloaded'; retryAfterSeconds?: number }
  | { type: 'server_error'; status?: number }
  /** `quotedKey`: the key the error quotes back, as OpenAI ("Incorrect API key provided: sk-…") and many compatible servers do. */
  | { type: 'unauthorized'; status?: 401 | 403; quotedKey?: string }
  /** Out of credit: OpenAI's 429 `insufficient_quota`; Anthropic's 400 "credit balance is too low". */
  | { type: 'insufficient_quota' }
  | { type: 'context_length_exceeded'; shape?: ContextLengthShape }
  /** Any response at all. */
  | { type: 'http'; status: number; body: unknown; headers?: Readonly<Record<string, string>> }
  /** A reply decided when its request arrives, from what the request carries (a tool result, say). */
  | { type: 'respond'; respond: (request: RecordedRequest) => FakeReply };

/** A reply as the wire renders it: a `respond` reply is decided first. */
export type ResolvedFakeReply = Exclude<FakeReply, { type: 'respond' }>;

/** A request the fake server received. */
export interface RecordedRequest {
  /** Position among all requests this server received, from 0. */
  index: number;
  method: string;
  path: string;
  headers: Readonly<Record<string, string>>;
  /** The parsed JSON body, the raw text when it is not JSON, or undefined when empty. */
  body: unknown;
  /** `Date.now()` when the request arrived. */
  receivedAt: number;
  /** True when the client went away before the reply was complete (cancellation). */
  closedEarly: boolean;
}

/**
 * A reply of text deltas, one per argument.
 *
 * @example
 * await startFakeOpenAI({ script: [fakeTextReply('Hel', 'lo')] });
 */
export function fakeTextReply(...texts: string[]): FakeStreamReply {
  return { type: 'stream', steps: texts.map((text) => ({ type: 'text', text })) };
}

/**
 * A reply that calls one tool.
 *
 * @example
 * await startFakeAnthropic({ script: [fakeToolCallReply('current_time', {}), fakeTextReply('It is noon.')] });
 */
export function fakeToolCallReply(
  name: string,
  toolArguments: Readonly<Record<string, unknown>> | string,
): FakeStreamReply {
  return { type: 'stream', steps: [{ type: 'tool_call', name, arguments: toolArguments }] };
}
