import type { ResolvedFakeReply, FakeStep, FakeStreamReply, RecordedRequest } from './fake-script.ts';

/** A piece of a rendered stream: bytes to write, a pause, or the connection dying. */
export type WireFrame =
  { kind: 'data'; text: string } | { kind: 'delay'; ms: number } | { kind: 'cut'; mode: 'reset' | 'end' };

/** A rendered non-stream reply. */
export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** What differs between the OpenAI-compatible and Anthropic fake servers. */
export interface WireFormat {
  readonly name: string;
  /** The path the server's URL points at; the provider's `baseURL`. */
  readonly basePath: string;
  readonly chatPath: string;
  readonly modelsPath: string;
  isAuthorized(headers: Readonly<Record<string, string>>, apiKey: string): boolean;
  renderStream(reply: FakeStreamReply, request: RecordedRequest, sequence: number): WireFrame[];
  /** The whole reply as one JSON body, for `stream: false` (or a server that ignores `stream: true`). */
  renderComplete(reply: FakeStreamReply, request: RecordedRequest, sequence: number): WireResponse;
  renderError(reply: Exclude<ResolvedFakeReply, FakeStreamReply>): WireResponse;
  /** The headers the vendor sends with every response: its request id, for support tickets. */
  responseHeaders(sequence: number): Record<string, string>;
  renderModels(models: readonly Readonly<Record<string, unknown>>[]): unknown;
}

/** What a scripted reply adds up to once streamed: the parts of a non-streamed body. */
export interface ReplyTotals {
  text: string;
  refusal: string;
  reasoning: string;
  toolCalls: { id: string | undefined; name: string; arguments: string }[];
  usage: Extract<FakeStep, { type: 'usage' }> | undefined;
  /** A `stream_error` step: a non-streamed reply answers with this error instead. */
  error: Extract<FakeStep, { type: 'stream_error' }> | undefined;
}

/**
 * Folds a reply's steps into what its non-streamed body holds (delays, raw bytes and cuts have no
 * meaning there and are skipped).
 */
export function totalsOf(reply: FakeStreamReply): ReplyTotals {
  const totals: ReplyTotals = {
    text: '',
    refusal: '',
    reasoning: '',
    toolCalls: [],
    usage: undefined,
    error: undefined,
  };
  for (const step of reply.steps) {
    switch (step.type) {
      case 'text':
        totals.text += step.text;
        break;
      case 'refusal':
        totals.refusal += step.text;
        break;
      case 'reasoning':
        totals.reasoning += step.text;
        break;
      case 'tool_call':
        totals.toolCalls.push({
          id: step.id,
          name: step.name,
          arguments: typeof step.arguments === 'string' ? step.arguments : JSON.stringify(step.arguments),
        });
        break;
      case 'usage':
        totals.usage = step;
        break;
      case 'stream_error':
        totals.error ??= step;
        break;
      default:
        break;
    }
  }
  return totals;
}

/** A request id shaped like the vendors' (`req_` and hex), unique per response. */
export function fakeRequestId(sequence: number): string {
  return `req_${sequence.toString(16).padStart(8, '0')}${Math.random().toString(16).slice(2, 18).padEnd(16, '0')}`;
}

/** Splits `text` into `count` pieces of whole characters (never inside a surrogate pair). */
export function splitText(text: string, count: number): string[] {
  const characters = Array.from(text);
  const pieces: string[] = [];
  const size = Math.max(1, Math.ceil(characters.length / Math.max(1, count)));
  for (let start = 0; start < characters.length; start += size) {
    pieces.push(characters.slice(start, start + size).join(''));
  }
  return pieces.length > 0 ? pieces : [''];
}

/** A rough token count, so replies report some usage when the script names none. */
export function estimateTokens(value: unknown): number {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return Math.max(1, Math.ceil(text.length / 4));
}

/**
 * The text of the last user message in an OpenAI or Anthropic request body.
 *
 * @example
 * lastUserText({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] }); // 'Hi'
 */
export function lastUserText(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const messages = (body as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return '';
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as { role?: unknown; content?: unknown } | null;
    if (message?.role !== 'user') continue;
    if (typeof message.content === 'string') return message.content;
    if (Array.isArray(message.content)) {
      const texts = (message.content as { type?: unknown; text?: unknown }[])
        .filter((part) => part.type === 'text' && typeof part.text === 'string')
        .map((part) => part.text as string);
      if (texts.length > 0) return texts.join('\n');
    }
  }
  return '';
}

/**
 * The reply the fake servers give when nothing is scripted: the last user message, echoed.
 *
 * @example
 * await startFakeOpenAI({ fallback: echoReply }); // same as fallback: 'echo'
 */
export function echoReply(request: RecordedRequest): FakeStreamReply {
  const text = `echo: ${lastUserText(request.body)}`;
  return { type: 'stream', steps: splitText(text, 4).map((piece) => ({ type: 'text', text: piece })) };
}
