import {
  GLOBAL_NAMESPACE,
  InMemoryMemoryStorage,
  type ChatRequest,
  type Memory,
  type MemoryStorage,
} from '@youyou/agent';
import { errorReply, ScriptedProvider, scriptedModel, textReply } from '@youyou/testing';
import { describe, expect, it, vi } from 'vitest';
import { collect, testAgent, testBuilder, type TestAgentOptions } from './helpers.ts';

/** A clock the test moves by hand, so timestamps are distinct and known. */
function manualClock(start = 1_000): { now: () => number; tick: (ms?: number) => number } {
  let time = start;
  return { now: () => time, tick: (ms = 1) => (time += ms) };
}

/** The one user message of a memory extraction request, as text. */
function extractionText(request: ChatRequest | undefined): string {
  const message = request?.messages[0];
  if (message?.role !== 'user') return '';
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

const memoriesAnswer = (memories: readonly Record<string, unknown>[]): string => JSON.stringify({ memories });

/** A chat provider and a separate memory-model provider, with memory extraction routed to the latter. */
async function agentWithMemoryModel(options: TestAgentOptions = {}) {
  const chat = new ScriptedProvider({ id: 'chat', models: [scriptedModel('chat-model')] });
  const memoryModel = new ScriptedProvider({ id: 'memory', models: [scriptedModel('memory-model')] });
  const storage = (options.memoryStorage as InMemoryMemoryStorage | undefined) ?? new InMemoryMemoryStorage();
  const built = await testAgent({
    provider: chat,
    providers: [chat, memoryModel],
    memoryStorage: storage,
    ...options,
    config: { memoryModel: 'memory-model', ...options.config },
  });
  return { ...built, chat, memoryModel, storage };
}

describe('memories at session start (spec §4.7)', () => {
  it('the top memoryMaxItems memories of the workspace namespace are injected, and other namespaces are not', async () => {
    const clock = manualClock();
    const storage = new InMemoryMemoryStorage({ now: clock.now });
    const { agent } = await testAgent({ memoryStorage: storage, config: { memoryMaxItems: 3 } });
    for (let index = 1; index <= 5; index++) {
      clock.tick();
      await storage.upsert({
        id: `p${index}`,
        namespace: agent.cwd,
        content: `project fact ${index}`,
        source: 's',
        tags: [],
      });
    }
    clock.tick();
    await storage.upsert({
      id: 'o1',
      namespace: '/some/other/project',
      content: 'other project fact',
      source: 's',
      tags: [],
    });
    await storage.upsert({
      id: 'g1',
      namespace: GLOBAL_NAMESPACE,
      content: 'global fact',
      source: 's',
      tags: [],
    });

    const session = await agent.newSession();
    const memories = session.systemPrompt().sections.find((section) => section.layer === 'memories');
    expect(memories?.content).toBe('- [p5] project fact 5\n- [p4] project fact 4\n- [p3] project fact 3');
    expect(session.systemPrompt().text).not.toContain('other project fact');
    expect(session.systemPrompt().text).not.toContain('global fact');
  });

  it('the namespace is the absolute workspace root', async () => {
    const storage = new InMemoryMemoryStorage();
    const { agent, workspace } = await testAgent({ memoryStorage: storage });
    expect(agent.cwd).toBe(workspace.cwd);
    await storage.upsert({ id: 'p1', namespace: workspace.cwd, content: 'uses pnpm', source: 's', tags: [] });
    const session = await agent.newSession();
    expect(session.systemPrompt().text).toContain('uses pnpm');
  });

  it('the namespace is the absolute workspace root whether cwd is passed or defaulted', async () => {
    const storage = new InMemoryMemoryStorage();
    await storage.upsert({ id: 'r1', namespace: process.cwd(), content: 'root fact', source: 's', tags: [] });
    const defaulted = await testAgent({ memoryStorage: storage, withCwd: false });
    const first = await defaulted.agent.newSession();
    expect(first.systemPrompt().text).toContain('root fact');
    await first.close();
    const passed = await testAgent({ memoryStorage: storage, cwd: '.' });
    expect(passed.agent.cwd).toBe(process.cwd());
    expect((await passed.agent.newSession()).systemPrompt().text).toContain('root fact');
  });

  it('memoryNamespace "global" shares memories across projects', async () => {
    const storage = new InMemoryMemoryStorage();
    const { agent, provider, workspace } = await testAgent({
      memoryStorage: storage,
      memoryNamespace: GLOBAL_NAMESPACE,
    });
    await storage.upsert({
      id: 'g1',
      namespace: GLOBAL_NAMESPACE,
      content: 'likes dark mode',
      source: 's',
      tags: [],
    });
    await storage.upsert({
      id: 'w1',
      namespace: workspace.cwd,
      content: 'workspace only',
      source: 's',
      tags: [],
    });
    provider.enqueue(textReply('ok'), textReply(memoriesAnswer([{ content: 'answers in French' }])));
    const session = await agent.newSession();
    expect(session.systemPrompt().text).toContain('likes dark mode');
    expect(session.systemPrompt().text).not.toContain('workspace only');
    await collect(session.send('bonjour'));
    await session.close();
    expect((await storage.load(GLOBAL_NAMESPACE)).map((memory) => memory.content)).toContain(
      'answers in French',
    );
  });

  it('memoryMaxItems 0 injects no memories', async () => {
    const storage = new InMemoryMemoryStorage();
    const { agent } = await testAgent({ memoryStorage: storage, config: { memoryMaxItems: 0 } });
    await storage.upsert({ id: 'p1', namespace: agent.cwd, content: 'a fact', source: 's', tags: [] });
    const session = await agent.newSession();
    expect(session.systemPrompt().sections.map((section) => section.layer)).not.toContain('memories');
  });

  it('a storage that fails to load is logged and the session starts without memories', async () => {
    const broken: MemoryStorage = {
      load: () => Promise.reject(new Error('disk gone')),
      upsert: () => Promise.reject(new Error('disk gone')),
      delete: () => Promise.reject(new Error('disk gone')),
      search: () => Promise.reject(new Error('disk gone')),
    };
    const { agent, logs } = await testAgent({ memoryStorage: broken });
    const session = await agent.newSession();
    expect(session.systemPrompt().sections.map((section) => section.layer)).not.toContain('memories');
    expect(
      logs.some((line) => line.level === 'error' && JSON.stringify(line.data).includes('disk gone')),
    ).toBe(true);
  });
});

describe('memory extraction (spec §4.7)', () => {
  it('close() asks the configured memory model, not the chat model, with the existing memories and the conversation', async () => {
    const { agent, chat, memoryModel, storage } = await agentWithMemoryModel();
    await storage.upsert({
      id: 'm-tabs',
      namespace: agent.cwd,
      content: 'Prefers tabs',
      source: 'old',
      tags: [],
    });
    chat.enqueue(textReply('Noted, two spaces from now on.'));
    memoryModel.enqueue(textReply(memoriesAnswer([])));
    const session = await agent.newSession();
    await collect(session.send('I switched to two-space indentation.'));
    expect(memoryModel.requests).toHaveLength(0);
    await session.close();

    expect(chat.requests).toHaveLength(1);
    expect(memoryModel.requests).toHaveLength(1);
    const request = memoryModel.requests[0];
    expect(request?.model).toBe('memory-model');
    expect(request?.tools).toEqual([]);
    expect(request?.systemPrompt).toContain('JSON');
    const text = extractionText(request);
    expect(text).toContain('[m-tabs] Prefers tabs');
    expect(text).toContain('I switched to two-space indentation.');
    expect(text).toContain('Noted, two spaces from now on.');
  });

  it('without memoryModel the session model extracts', async () => {
    const storage = new InMemoryMemoryStorage();
    const { agent, provider } = await testAgent({ memoryStorage: storage });
    provider.enqueue(
      textReply('hello'),
      textReply(memoriesAnswer([{ content: 'The user says hello a lot.' }])),
    );
    const session = await agent.newSession();
    await collect(session.send('hello'));
    await session.close();
    expect(provider.requests).toHaveLength(2);
    expect(provider.requests[1]?.model).toBe(session.model.id);
    expect((await storage.load(agent.cwd)).map((memory) => memory.content)).toEqual([
      'The user says hello a lot.',
    ]);
  });

  it('a reused existing id updates that memory; a new memory gets a fresh id; the source is the session id', async () => {
    const { agent, chat, memoryModel, storage } = await agentWithMemoryModel();
    await storage.upsert({
      id: 'm-indent',
      namespace: agent.cwd,
      content: 'Prefers tabs',
      source: 'old-session',
      tags: [],
    });
    chat.enqueue(textReply('ok'));
    memoryModel.enqueue(
      textReply(
        memoriesAnswer([
          { id: 'm-indent', content: 'Prefers two-space indentation', tags: ['style'] },
          { content: 'The project is a TypeScript monorepo', tags: ['project'] },
          { id: 'made-up-id', content: 'Deploys on Fridays' },
        ]),
      ),
    );
    const session = await agent.newSession();
    await collect(session.send('two spaces please; this is a TS monorepo; we deploy Fridays'));
    await session.close();

    const saved = await storage.load(agent.cwd);
    expect(saved).toHaveLength(3);
    const byContent = new Map(saved.map((memory) => [memory.content, memory]));
    expect(byContent.get('Prefers two-space indentation')).toMatchObject({
      id: 'm-indent',
      source: session.id,
      tags: ['style'],
    });
    expect(byContent.has('Prefers tabs')).toBe(false);
    const fresh = byContent.get('The project is a TypeScript monorepo');
    expect(fresh).toMatchObject({ namespace: agent.cwd, source: session.id, tags: ['project'] });
    expect(fresh?.id).not.toBe('m-indent');
    // An id the storage does not hold is not trusted: the memory is inserted under a fresh id.
    const invented = byContent.get('Deploys on Fridays');
    expect(invented?.id).not.toBe('made-up-id');
    expect(new Set(saved.map((memory) => memory.id)).size).toBe(3);
  });

  it('a JSON answer inside ```json fences is read', async () => {
    const { agent, chat, memoryModel, storage } = await agentWithMemoryModel();
    chat.enqueue(textReply('ok'));
    memoryModel.enqueue(
      textReply(
        `Here you go:\n\`\`\`json\n${memoriesAnswer([{ content: 'Uses Vitest for tests' }])}\n\`\`\`\n`,
        { chunkSize: 7 },
      ),
    );
    const session = await agent.newSession();
    await collect(session.send('we test with vitest'));
    await session.close();
    expect((await storage.load(agent.cwd)).map((memory) => memory.content)).toEqual([
      'Uses Vitest for tests',
    ]);
  });

  it('every memoryCheckpointInterval turns a checkpoint extracts only the messages since the last extraction', async () => {
    const { agent, chat, memoryModel, storage } = await agentWithMemoryModel({
      config: { memoryCheckpointInterval: 2 },
    });
    chat.enqueue(textReply('reply one'), textReply('reply two'), textReply('reply three'));
    memoryModel.enqueue(
      textReply(memoriesAnswer([{ content: 'checkpoint memory' }])),
      textReply(memoriesAnswer([])),
    );
    const session = await agent.newSession();

    await collect(session.send('turn one'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(memoryModel.requests).toHaveLength(0);

    await collect(session.send('turn two'));
    await vi.waitFor(() => expect(memoryModel.requests).toHaveLength(1));
    const checkpoint = extractionText(memoryModel.requests[0]);
    expect(checkpoint).toContain('turn one');
    expect(checkpoint).toContain('reply two');
    await vi.waitFor(async () =>
      expect((await storage.load(agent.cwd)).map((memory) => memory.content)).toEqual(['checkpoint memory']),
    );

    await collect(session.send('turn three'));
    await session.close();
    expect(memoryModel.requests).toHaveLength(2);
    const atClose = extractionText(memoryModel.requests[1]);
    expect(atClose).toContain('turn three');
    expect(atClose).toContain('reply three');
    expect(atClose).not.toContain('turn one');
    expect(atClose).not.toContain('turn two');
    // The memory saved by the checkpoint is offered to the next extraction as an existing memory.
    expect(atClose).toContain('checkpoint memory');
  });

  it('close() after a checkpoint with nothing new sends no extraction request', async () => {
    const { agent, chat, memoryModel } = await agentWithMemoryModel({
      config: { memoryCheckpointInterval: 1 },
    });
    chat.enqueue(textReply('reply one'));
    memoryModel.enqueue(textReply(memoriesAnswer([])));
    const session = await agent.newSession();
    await collect(session.send('turn one'));
    await session.close();
    expect(memoryModel.requests).toHaveLength(1);
  });

  it('a session closed without any turn sends no extraction request', async () => {
    const { agent, memoryModel } = await agentWithMemoryModel();
    const session = await agent.newSession();
    await session.close();
    expect(memoryModel.requests).toHaveLength(0);
  });

  it('without a MemoryStorage nothing is extracted', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue(textReply('ok'));
    const session = await agent.newSession();
    await collect(session.send('remember that I like tea'));
    await session.close();
    expect(provider.requests).toHaveLength(1);
  });

  it.each([
    ['an error reply', errorReply('memory model is down')],
    ['an answer that is not JSON', textReply('I could not find anything worth remembering.')],
    ['invalid JSON', textReply('{"memories": [ {"content": "unterminated" ')],
    ['JSON without a memories list', textReply('{"facts": ["a"]}')],
  ])('extraction failing with %s is logged and close still resolves', async (_label, reply) => {
    const { agent, chat, memoryModel, storage, logs } = await agentWithMemoryModel();
    chat.enqueue(textReply('ok'));
    memoryModel.enqueue(reply);
    const session = await agent.newSession();
    await collect(session.send('remember this'));
    await expect(session.close()).resolves.toBeUndefined();
    expect(memoryModel.requests).toHaveLength(1);
    expect(await storage.load(agent.cwd)).toEqual([]);
    expect(
      logs.some((line) => line.level === 'error' && line.message.includes('memory extraction failed')),
    ).toBe(true);
    // The agent is free again: a new session opens.
    await (await agent.newSession()).close();
  });

  it('a memory model that never answers is cut off by the stall timeout and close resolves', async () => {
    const { agent, chat, memoryModel, logs } = await agentWithMemoryModel({
      config: { providerFirstChunkTimeoutMs: 50, providerChunkTimeoutMs: 50 },
    });
    chat.enqueue(textReply('ok'));
    memoryModel.enqueue([{ type: 'stall' }]);
    const session = await agent.newSession();
    await collect(session.send('remember this'));
    await expect(session.close()).resolves.toBeUndefined();
    expect(logs.some((line) => line.message.includes('memory extraction failed'))).toBe(true);
  });

  it('a memoryModel no provider serves is refused at build, not discovered at the first close', async () => {
    const { builder } = await testBuilder({
      memoryStorage: new InMemoryMemoryStorage(),
      config: { memoryModel: 'nobody-serves-this' },
    });
    await expect(builder.build()).rejects.toMatchObject({ code: 'MODEL_NOT_SUPPORTED' });
  });
});

describe('InMemoryMemoryStorage', () => {
  const input = (id: string, content: string, overrides: Partial<Memory> = {}) => ({
    id,
    namespace: 'ns',
    content,
    source: 's1',
    tags: [] as string[],
    ...overrides,
  });

  it('an upsert with the same content only moves updatedAt', async () => {
    const clock = manualClock();
    const storage = new InMemoryMemoryStorage({ now: clock.now });
    const first = await storage.upsert(input('m1', 'Prefers tabs', { tags: ['style'] }));
    clock.tick(50);
    const second = await storage.upsert(input('m1', 'Prefers tabs', { tags: ['style'] }));
    expect(second).toEqual({ ...first, updatedAt: first.updatedAt + 50 });
    expect(await storage.load('ns')).toEqual([second]);
  });

  it('an upsert with different content replaces the content and keeps createdAt', async () => {
    const clock = manualClock();
    const storage = new InMemoryMemoryStorage({ now: clock.now });
    const first = await storage.upsert(input('m1', 'Prefers tabs'));
    clock.tick(50);
    const second = await storage.upsert(input('m1', 'Prefers spaces', { tags: ['style'], source: 's2' }));
    expect(second).toMatchObject({ id: 'm1', content: 'Prefers spaces', tags: ['style'], source: 's2' });
    expect(second.createdAt).toBe(first.createdAt);
    expect(second.updatedAt).toBe(first.updatedAt + 50);
    expect(await storage.load('ns')).toHaveLength(1);
  });

  it('search ranks by matched words, then newest first, and leaves out memories matching no word', async () => {
    const clock = manualClock();
    const storage = new InMemoryMemoryStorage({ now: clock.now });
    await storage.upsert(input('one-word-old', 'Uses pnpm'));
    clock.tick();
    await storage.upsert(input('two-words', 'Uses pnpm workspaces for the monorepo'));
    clock.tick();
    await storage.upsert(input('one-word-new', 'The monorepo has five packages'));
    clock.tick();
    await storage.upsert(input('none', 'Likes dark mode'));
    clock.tick();
    await storage.upsert(input('tagged', 'Deploys on Fridays', { tags: ['PNPM'] }));

    const ranked = await storage.search('ns', 'pnpm Monorepo', 10);
    expect(ranked.map((memory) => memory.id)).toEqual([
      'two-words',
      'tagged',
      'one-word-new',
      'one-word-old',
    ]);
    expect((await storage.search('ns', 'pnpm monorepo', 2)).map((memory) => memory.id)).toEqual([
      'two-words',
      'tagged',
    ]);
    expect((await storage.search('ns', '', 2)).map((memory) => memory.id)).toEqual(['tagged', 'none']);
    expect(await storage.search('other-ns', 'pnpm', 10)).toEqual([]);
  });
});
