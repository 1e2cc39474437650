import { lastUserText, type FakeReply, type FakeStep, type RecordedRequest } from '@youyou/testing';

/** The tool the e2e home registers (a file tool that echoes its arguments). */
export const LOOKUP_TOOL = 'lookup';

interface ChatMessage {
  role?: string;
  content?: unknown;
}

function messagesOf(request: RecordedRequest): ChatMessage[] {
  const body = request.body as { messages?: ChatMessage[] } | undefined;
  return Array.isArray(body?.messages) ? body.messages : [];
}

function systemText(request: RecordedRequest): string {
  return messagesOf(request)
    .filter((message) => message.role === 'system')
    .map((message) =>
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    )
    .join('\n');
}

function words(text: string, delayMs: number): FakeStep[] {
  return text.split(/(?<= )/).flatMap((piece): FakeStep[] => [
    { type: 'delay', ms: delayMs },
    { type: 'text', text: piece },
  ]);
}

/** An answer with everything the renderer draws lazily: highlighted code, a table, math, a diagram. */
export const RICH_MARKDOWN = [
  '## Results',
  '',
  'The sum is computed by `add`, and Euler says $e^{i\\pi} + 1 = 0$.',
  '',
  '```ts',
  'export function add(a: number, b: number): number {',
  '  return a + b; // no surprises',
  '}',
  '```',
  '',
  '| model | tokens | time |',
  '|---|---:|---:|',
  '| small | 1,024 | 0.8 s |',
  '| large | 8,192 | 4.1 s |',
  '',
  '$$',
  '\\int_0^1 x^2 \\, dx = \\frac{1}{3}',
  '$$',
  '',
  '```mermaid',
  'graph LR',
  '  Question --> Think --> Tools --> Answer',
  '```',
  '',
  '- [x] highlighted code',
  '- [x] a table',
  '- [ ] <script>alert(1)</script> stays text',
].join('\n');

/**
 * What the fake model answers in the browser tests, by the person's last message:
 * - a title request (the lightweight model): "Garden planning";
 * - "use tools": reasoning and three `lookup` calls, then (with the results) a final answer;
 * - "stream slowly": a numbered answer, one word every 60 ms (reload mid-stream);
 * - a message sent with a skill whose prompt holds HAIKU-SKILL: a haiku;
 * - "which documents": the attached documents it was given (name, and "unreadable" for a failure);
 * - anything else: "Echo: <message>" streamed word by word.
 */
export function fakeModelReply(request: RecordedRequest): FakeReply {
  const messages = messagesOf(request);
  const last = messages.at(-1);
  const text = lastUserText(request.body);
  if (last?.role === 'tool') {
    return {
      type: 'stream',
      steps: [{ type: 'text', text: 'All three lookups agree: the answer is **42**.' }],
    };
  }
  if (systemText(request).includes('You name conversations')) {
    // The lightweight model, asked for a title (apps/server/src/models/conversation-title.ts).
    return { type: 'stream', steps: [{ type: 'text', text: 'Title: Garden planning.' }] };
  }
  if (text.includes('use tools')) {
    return {
      type: 'stream',
      steps: [
        { type: 'reasoning', text: 'I should look this up three ways. ' },
        { type: 'delay', ms: 300 },
        { type: 'reasoning', text: 'Calling the lookup tool.' },
        { type: 'tool_call', name: LOOKUP_TOOL, arguments: { query: 'first' }, id: 'call_1' },
        { type: 'tool_call', name: LOOKUP_TOOL, arguments: { query: 'second' }, id: 'call_2' },
        { type: 'tool_call', name: LOOKUP_TOOL, arguments: { query: 'third' }, id: 'call_3' },
      ],
    };
  }
  if (text.includes('show rich markdown')) {
    return { type: 'stream', steps: words(RICH_MARKDOWN, 2) };
  }
  if (text.includes('which documents')) {
    const seen = [
      ...JSON.stringify(messages).matchAll(
        /<document id=\\"[^"\\]*\\" name=\\"([^"\\]*)\\"( status=\\"failed\\")?/g,
      ),
    ];
    const list = seen.map(
      (match) => `${match[1] ?? ''}${match[2] === undefined ? ' (read)' : ' (unreadable)'}`,
    );
    return { type: 'stream', steps: words(`Documents: ${list.join(', ')}.`, 10) };
  }
  if (text.includes('stream slowly')) {
    const numbered = Array.from({ length: 60 }, (_unused, index) => `w${String(index + 1)} `).join('');
    return { type: 'stream', steps: words(numbered, 60) };
  }
  if (systemText(request).includes('HAIKU-SKILL') || JSON.stringify(messages).includes('HAIKU-SKILL')) {
    return { type: 'stream', steps: words('Autumn moonlight — a worm digs silently into the chestnut.', 10) };
  }
  return { type: 'stream', steps: words(`Echo: ${text}`, 25) };
}
