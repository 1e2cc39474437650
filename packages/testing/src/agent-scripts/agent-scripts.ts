import type { FakeReply, RecordedRequest } from '../fake-servers/fake-script.ts';
import { echoReply } from '../fake-servers/wire-format.ts';

/** The text of the first user message of an OpenAI or Anthropic request: which session asks. */
export function firstUserText(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const messages = (body as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return '';
  for (const entry of messages) {
    const message = entry as { role?: unknown; content?: unknown } | null;
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

/** The replies of one session, picked by what its first user message says. */
export interface SessionScript {
  /** A substring (or pattern) of the session's first user message: the user's text, or a sub-agent's task. */
  match: string | RegExp;
  /** Its model's replies, in order, one per model call of that session. */
  replies: FakeReply[];
}

/** Scripts for several sessions talking to one fake model server at once. */
export interface SessionScripts {
  /** The fake server's `fallback`: answers each request from the script of the session asking. */
  reply(request: RecordedRequest): FakeReply;
  /** Adds a session's script (checked before the earlier ones). */
  add(script: SessionScript): void;
  /** Replies not yet used, per session. */
  readonly remaining: Readonly<Record<string, number>>;
  /** Throws when a scripted session still has replies left. */
  assertDone(): void;
}

/**
 * Routes a fake model server's replies by session, so a parent and its concurrent sub-agents each
 * get their own script whatever order their requests arrive in. A request no script matches, or
 * one whose script is used up, gets `fallback` (default: an echo).
 *
 * @example
 * const scripts = sessionScripts([
 *   { match: 'Plan the launch', replies: [fakeToolCallReply('spawn_agent', { task: 'Research A' }), fakeTextReply('Done.')] },
 *   { match: 'Research A', replies: [fakeTextReply('A is fine.')] },
 * ]);
 * const fake = await startFakeOpenAI({ fallback: scripts.reply });
 */
export function sessionScripts(
  scripts: readonly SessionScript[] = [],
  fallback: (request: RecordedRequest) => FakeReply = echoReply,
): SessionScripts {
  const entries = scripts.map((script) => ({ match: script.match, replies: [...script.replies] }));
  const matches = (pattern: string | RegExp, text: string): boolean =>
    typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
  return {
    reply(request) {
      const text = firstUserText(request.body);
      const entry = entries.find((candidate) => matches(candidate.match, text));
      return entry?.replies.shift() ?? fallback(request);
    },
    add(script) {
      entries.unshift({ match: script.match, replies: [...script.replies] });
    },
    get remaining() {
      return Object.fromEntries(entries.map((entry) => [String(entry.match), entry.replies.length]));
    },
    assertDone() {
      const left = entries.filter((entry) => entry.replies.length > 0);
      if (left.length > 0) {
        throw new Error(
          `Scripted sessions still have replies: ${left.map((entry) => `${String(entry.match)} (${entry.replies.length})`).join(', ')}`,
        );
      }
    },
  };
}
