import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  abort,
  defaultHome,
  InMemoryMemoryStorage,
  InMemorySessionStorage,
  INTERRUPTED_NOTE,
  stopKindOf,
  stopReason,
  type Plugin,
} from '@youyou/agent';
import { textReply, toolCallReply } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { collect, deferred, ofType, testAgent, tool } from './helpers.ts';

const plugin = (id: string, overrides: Partial<Plugin> = {}): Plugin => ({
  id,
  displayName: id,
  description: `The ${id} plugin.`,
  apply: () => {},
  ...overrides,
});

const aborting = (hook: 'SessionStart' | 'SessionEnd' | 'TurnEnd' | 'AfterToolUse'): Plugin =>
  plugin(`no-${hook}`, { apply: (hooks) => hooks.tap(hook, () => abort(`${hook} says no`)) });

const memoriesAnswer = (content: string) => textReply(JSON.stringify({ memories: [{ content, tags: [] }] }));

describe('Abort on the observe hooks (spec §3.6, decision 0005)', () => {
  it('Abort on SessionStart refuses the session: HOOK_ABORTED, nothing stored, the agent stays free', async () => {
    const storage = new InMemorySessionStorage();
    const { agent } = await testAgent({ plugins: [aborting('SessionStart')], sessionStorage: storage });
    await expect(agent.newSession()).rejects.toMatchObject({
      code: 'HOOK_ABORTED',
      details: { pluginId: 'no-SessionStart', hook: 'SessionStart' },
    });
    expect(agent.activeSession).toBeUndefined();
    expect((await storage.list({ limit: 10 })).sessions).toHaveLength(0);
  });

  it('Abort on SessionEnd still closes the session but skips its memory extraction', async () => {
    const memories = new InMemoryMemoryStorage();
    const { agent, provider, workspace } = await testAgent({
      plugins: [aborting('SessionEnd')],
      memoryStorage: memories,
    });
    provider.enqueue(textReply('ok'), memoriesAnswer('must not be saved'));
    const session = await agent.newSession();
    await collect(session.send('remember this'));
    await session.close();
    expect(agent.activeSession).toBeUndefined();
    expect(provider.requests).toHaveLength(1);
    expect(await memories.load(workspace.cwd)).toHaveLength(0);
    expect(provider.pending).toBe(1);
  });

  it('Abort on TurnEnd keeps the turn out of memory extraction; its result stands', async () => {
    const memories = new InMemoryMemoryStorage();
    let refuse = true;
    const picky = plugin('picky', {
      apply: (hooks) => hooks.tap('TurnEnd', () => (refuse ? abort('private turn') : undefined)),
    });
    const { agent, provider } = await testAgent({ plugins: [picky], memoryStorage: memories });
    provider.enqueue(textReply('secret answer'), textReply('public answer'));
    const session = await agent.newSession();
    const first = await collect(session.send('a private question'));
    expect(first.at(-1)).toMatchObject({
      type: 'TurnComplete',
      status: 'completed',
      output: 'secret answer',
    });
    refuse = false;
    await collect(session.send('a public question'));
    provider.enqueue(memoriesAnswer('fact'));
    await session.close();
    const transcript = JSON.stringify(provider.requests.at(-1)?.messages);
    expect(transcript).toContain('a public question');
    expect(transcript).not.toContain('a private question');
    expect(transcript).not.toContain('secret answer');
  });

  it('Abort on AfterToolUse withholds the tool output from the model: an error result naming the plugin', async () => {
    const { agent, provider } = await testAgent({
      tools: [tool('leaky', () => ({ content: 'password=hunter2' }))],
      plugins: [aborting('AfterToolUse')],
    });
    provider.enqueue(toolCallReply([{ toolName: 'leaky' }]), textReply('ok'));
    const events = await collect((await agent.newSession()).send('go'));
    const end = ofType(events, 'ToolCallEnd')[0];
    expect(end).toMatchObject({ success: false });
    expect(end?.output).toMatch(/HOOK_ABORTED.*no-AfterToolUse.*AfterToolUse says no/);
    expect(JSON.stringify(provider.requests[1]?.messages)).not.toContain('hunter2');
  });
});

describe('an overridden programmatic plugin (spec §3.1, §3.5)', () => {
  it('a programmatic plugin replaced by a same-id file plugin never initialises or shuts down', async () => {
    const calls: string[] = [];
    const replaced = plugin('audit', {
      initialize: () => void calls.push('initialize'),
      apply: () => void calls.push('apply'),
      shutdown: () => void calls.push('shutdown'),
    });
    const { builder, workspace } = await (await import('./helpers.ts')).testBuilder({ plugins: [replaced] });
    const folder = join(workspace.home, 'plugins', 'audit');
    await mkdir(folder, { recursive: true });
    await writeFile(
      join(folder, 'index.md'),
      '---\nversion: 1\nid: audit\ndisplay_name: Audit (file)\nhooks:\n  TurnEnd:\n    command: "true"\n---\nThe file audit plugin.\n',
    );
    const agent = await builder.build();
    expect(
      agent.components().find((entry) => entry.name === 'audit' && entry.layer === 'programmatic'),
    ).toMatchObject({
      overriddenBy: 'global',
      enabled: false,
    });
    await (await agent.newSession()).close();
    await agent.shutdown();
    expect(calls).toEqual([]);
  });
});

describe('the file channel is on by default (spec §6.1)', () => {
  it('build() loads tools from {home} and {cwd}/.youyou without addComponentSource', async () => {
    const { builder, provider, workspace } = await (await import('./helpers.ts')).testBuilder();
    for (const [layer, name] of [
      [workspace.home, 'global_tool'],
      [join(workspace.cwd, '.youyou'), 'project_tool'],
    ] as const) {
      const folder = join(layer, 'tools', name);
      await mkdir(folder, { recursive: true });
      await writeFile(
        join(folder, 'index.md'),
        `---\nversion: 1\nname: ${name}\nexecution:\n  command: "true"\n---\nThe ${name} tool.\n`,
      );
    }
    const agent = await builder.build();
    provider.enqueue(textReply('ok'));
    await collect((await agent.newSession()).send('hi'));
    expect(provider.requests[0]?.tools.map((entry) => entry.name).sort()).toEqual([
      'global_tool',
      'project_tool',
    ]);
    await agent.shutdown();
  });

  it('fileComponents: false builds from programmatic registrations only', async () => {
    const { agent, workspace } = await testAgent({ fileComponents: false });
    await mkdir(join(workspace.home, 'tools', 'ignored'), { recursive: true });
    await writeFile(
      join(workspace.home, 'tools', 'ignored', 'index.md'),
      '---\nversion: 1\nname: ignored\nexecution:\n  command: "true"\n---\nIgnored.\n',
    );
    await (await agent.newSession()).close();
    expect(agent.components().map((entry) => entry.name)).not.toContain('ignored');
  });

  it('no test reaches the real ~/.youyou: the suite runs with YOUYOU_HOME in a temp folder', () => {
    const home = process.env['YOUYOU_HOME'] ?? '';
    expect(home).toContain('youyou-test-home');
    expect(defaultHome()).toBe(home);
  });
});

describe('interrupted replies and stop kinds (spec §3.7, §6.2)', () => {
  it('a resumed cancelled reply is followed by the spec note "[此消息因用户取消而中断]"', async () => {
    expect(INTERRUPTED_NOTE).toBe('[此消息因用户取消而中断]');
    const storage = new InMemorySessionStorage();
    const { agent, provider } = await testAgent({ sessionStorage: storage });
    provider.enqueue([{ type: 'text_delta', text: 'half' }, { type: 'hang' }]);
    const session = await agent.newSession();
    const turn = session.send('go');
    const events: string[] = [];
    for await (const event of turn) {
      events.push(event.type);
      if (event.type === 'TextDelta') turn.cancel();
    }
    await session.close();
    const resumed = await agent.resumeSession(session.id);
    expect(resumed.messages.at(-1)).toEqual({ role: 'system', content: '[此消息因用户取消而中断]' });
  });

  it('interruptedNote localises the note, live and on resume', async () => {
    const storage = new InMemorySessionStorage();
    const note = '[This message was interrupted because the user cancelled it.]';
    const { agent, provider } = await testAgent({
      sessionStorage: storage,
      config: { interruptedNote: note },
    });
    provider.enqueue([{ type: 'text_delta', text: 'half' }, { type: 'hang' }]);
    const session = await agent.newSession();
    const turn = session.send('go');
    for await (const event of turn) if (event.type === 'TextDelta') turn.cancel();
    expect(session.messages.at(-1)).toEqual({ role: 'system', content: note });
    await session.close();
    expect((await agent.resumeSession(session.id)).messages.at(-1)).toEqual({
      role: 'system',
      content: note,
    });
  });

  it('a turn stopped with stopReason("interrupt") reports the kind; a plain cancel is "cancel"', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue([{ type: 'hang' }], [{ type: 'hang' }]);
    const session = await agent.newSession();
    const controller = new AbortController();
    const interrupted = session.send('one', { signal: controller.signal });
    const draining = interrupted.done();
    controller.abort(stopReason('interrupt', 'The server is stopping.'));
    expect(await draining).toMatchObject({ state: 'cancelled', stop: 'interrupt' });
    const cancelled = session.send('two');
    const done = cancelled.done();
    cancelled.cancel();
    expect(await done).toMatchObject({ state: 'cancelled', stop: 'cancel' });
    expect(stopKindOf(new Error('x'))).toBe('cancel');
  });

  it('a cancel during a running tool lets it finish before TurnCancelled', async () => {
    const release = deferred();
    const started = deferred();
    const { agent, provider } = await testAgent({
      tools: [
        tool(
          'write',
          async () => {
            started.resolve();
            await release.promise;
            return { content: 'written' };
          },
          { mutating: true },
        ),
      ],
    });
    provider.enqueue(toolCallReply([{ toolName: 'write' }]));
    const turn = (await agent.newSession()).send('go');
    const events = collect(turn);
    await started.promise;
    turn.cancel();
    release.resolve();
    const all = await events;
    expect(ofType(all, 'ToolCallEnd')[0]).toMatchObject({ output: 'written', success: true });
    expect(all.at(-1)?.type).toBe('TurnCancelled');
  });
});

describe('a tool call truncated by the token limit (finishReason length)', () => {
  it('is never executed: the model is told, and the turn ends cut off at the token limit', async () => {
    let ran = 0;
    const { agent, provider } = await testAgent({ tools: [tool('write', () => (ran++, { content: 'ok' }))] });
    provider.enqueue([
      { type: 'tool_call', callId: 'whole', toolName: 'write', arguments: '{"path":"a.txt"}' },
      { type: 'tool_call', callId: 'cut', toolName: 'write', arguments: '{"path":"b.txt","content":"lo' },
      { type: 'done', finishReason: 'length' },
    ]);
    const session = await agent.newSession();
    const events = await collect(session.send('write two files'));
    expect(ran).toBe(1);
    const cut = ofType(events, 'ToolCallEnd').find((end) => end.callId === 'cut');
    expect(cut).toMatchObject({ success: false });
    expect(cut?.output).toMatch(/token limit/);
    expect(events.at(-1)).toMatchObject({
      type: 'TurnComplete',
      status: 'completed',
      finishReason: 'length',
    });
    expect(session.messages.at(-1)).toMatchObject({ role: 'tool', callId: 'cut', isError: true });
    expect(provider.requests).toHaveLength(1);
  });
});
