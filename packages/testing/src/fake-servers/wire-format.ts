import type { FakeStreamReply, RecordedRequest, ResolvedFakeReply } from './fake-script.ts';

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
  renderError(reply: Exclude<ResolvedFakeReply, FakeStreamReply>): WireResponse;
  renderModels(models: readonly Readonly<Record<string, unknown>>[]): unknown;
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
