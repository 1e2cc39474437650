import {
  abort,
  estimateMessageTokens,
  IMAGE_TOKEN_ESTIMATE,
  InMemorySessionStorage,
  type Message,
  type ModelCapabilities,
  type Plugin,
  type ToolHandler,
  type ToolResultMessage,
} from '@youyou/agent';
import { ScriptedProvider, scriptedModel, textReply, toolCallReply } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { collect, testAgent, tool, type TestAgent } from './helpers.ts';

const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);
const base64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64');

/** A tool that returns a screenshot: a text line for every model, the image for those that see. */
const screenshot: ToolHandler = tool('screenshot', () => ({
  content: '[image: image/png, 16 B]',
  images: [{ type: 'image', mediaType: 'image/png', data: base64(PNG) }],
}));

async function agentWith(
  capabilities: Partial<ModelCapabilities>,
  tools: ToolHandler[] = [screenshot],
  plugins: Plugin[] = [],
): Promise<TestAgent & { storage: InMemorySessionStorage }> {
  const provider = new ScriptedProvider({
    models: [
      scriptedModel('m', {
        capabilities: { toolUse: true, vision: true, streaming: true, ...capabilities },
      }),
    ],
  });
  const storage = new InMemorySessionStorage();
  return { ...(await testAgent({ provider, tools, plugins, sessionStorage: storage })), storage };
}

function toolResults(messages: readonly Message[]): ToolResultMessage[] {
  return messages.filter((message): message is ToolResultMessage => message.role === 'tool');
}

describe('images in tool results (decision 0046)', () => {
  it("a vision model's next request carries the tool's image on its result, beside the text line", async () => {
    const agent = await agentWith({ vision: true });
    agent.provider.enqueue(toolCallReply([{ toolName: 'screenshot' }]), textReply('a login form'));
    const session = await agent.agent.newSession();
    const events = await collect(session.send('what is on screen?'));
    expect(events.at(-1)).toMatchObject({ type: 'TurnComplete', status: 'completed' });
    const [result] = toolResults(agent.provider.requests[1]?.messages ?? []);
    expect(result).toMatchObject({
      content: '[image: image/png, 16 B]',
      images: [{ type: 'image', mediaType: 'image/png', data: base64(PNG) }],
    });
    expect(estimateMessageTokens(result as ToolResultMessage)).toBeGreaterThan(IMAGE_TOKEN_ESTIMATE);
  });

  it('a model without vision gets the text line only', async () => {
    const agent = await agentWith({ vision: false });
    agent.provider.enqueue(toolCallReply([{ toolName: 'screenshot' }]), textReply('an image was taken'));
    const session = await agent.agent.newSession();
    await collect(session.send('take a screenshot'));
    const [result] = toolResults(agent.provider.requests[1]?.messages ?? []);
    expect(result?.content).toBe('[image: image/png, 16 B]');
    expect(result?.images).toBeUndefined();
  });

  it('images stay for the rest of their turn, then only the text goes on; the log and a resumed session hold the text', async () => {
    const agent = await agentWith({ vision: true });
    agent.provider.enqueue(
      toolCallReply([{ toolName: 'screenshot' }]),
      toolCallReply([{ toolName: 'screenshot' }]),
      textReply('two screenshots'),
      textReply('they showed a form'),
    );
    const session = await agent.agent.newSession();
    await collect(session.send('take two screenshots'));
    const third = toolResults(agent.provider.requests[2]?.messages ?? []);
    expect(third.map((message) => message.images?.length)).toEqual([1, 1]);

    await collect(session.send('what did they show?'));
    const nextTurn = toolResults(agent.provider.requests[3]?.messages ?? []);
    expect(nextTurn.map((message) => message.content)).toEqual([
      '[image: image/png, 16 B]',
      '[image: image/png, 16 B]',
    ]);
    expect(nextTurn.every((message) => message.images === undefined)).toBe(true);

    const records = (await agent.storage.load(session.id)) ?? [];
    const stored = records.filter((record) => record.type === 'tool_result');
    expect(stored).toHaveLength(2);
    expect(JSON.stringify(stored)).not.toContain(base64(PNG));
    const live = session.messages;
    await session.close();
    const resumed = await agent.agent.resumeSession(session.id);
    expect(resumed.messages).toEqual(live);
  });

  it('an image is checked by its bytes: a wrong media type is corrected, a non-image is left out with a note', async () => {
    const mixed = tool('mixed', () => ({
      content: 'two attachments',
      images: [
        { type: 'image', mediaType: 'image/gif', data: base64(PNG) },
        { type: 'image', mediaType: 'image/png', data: base64('just some text, not a picture') },
      ],
    }));
    const agent = await agentWith({ vision: true }, [mixed]);
    agent.provider.enqueue(toolCallReply([{ toolName: 'mixed' }]), textReply('ok'));
    const session = await agent.agent.newSession();
    await collect(session.send('go'));
    const [result] = toolResults(agent.provider.requests[1]?.messages ?? []);
    expect(result?.images).toEqual([{ type: 'image', mediaType: 'image/png', data: base64(PNG) }]);
    expect(result?.content).toBe('two attachments\n[image 2 left out: not a PNG, JPEG, GIF or WebP image]');
  });

  it('an Abort on AfterToolUse withholds the images with the text', async () => {
    const censor: Plugin = {
      id: 'censor',
      displayName: 'Censor',
      description: 'Withholds screenshots.',
      apply: (hooks) => hooks.tap('AfterToolUse', () => abort('screenshots stay private')),
    };
    const agent = await agentWith({ vision: true }, [screenshot], [censor]);
    agent.provider.enqueue(toolCallReply([{ toolName: 'screenshot' }]), textReply('withheld'));
    const session = await agent.agent.newSession();
    await collect(session.send('take a screenshot'));
    const [result] = toolResults(agent.provider.requests[1]?.messages ?? []);
    expect(result?.content).toMatch(/^Error \[HOOK_ABORTED\]: .*screenshots stay private/);
    expect(result?.images).toBeUndefined();
  });

  it('images that are not a list of image blocks make the call an invalid output', async () => {
    const broken = tool('broken', () => ({ content: 'x', images: 'not a list' as never }));
    const agent = await agentWith({ vision: true }, [broken]);
    agent.provider.enqueue(toolCallReply([{ toolName: 'broken' }]), textReply('ok'));
    const session = await agent.agent.newSession();
    const events = await collect(session.send('go'));
    expect(events.find((event) => event.type === 'ToolCallEnd')).toMatchObject({
      success: false,
      output: expect.stringContaining('TOOL_EXECUTION_ERROR') as unknown,
    });
    const [result] = toolResults(agent.provider.requests[1]?.messages ?? []);
    expect(result?.images).toBeUndefined();
  });
});
