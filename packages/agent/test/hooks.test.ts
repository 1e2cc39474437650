import {
  abort,
  Continue,
  continueWith,
  type HookHandler,
  type HookName,
  type HookPayload,
  type Plugin,
  type PluginConfig,
} from '@youyou/agent';
import { textReply, toolCallReply } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { HookRegistry, type HookTapRecord } from '../src/hooks/index.ts';
import { collect, memoryLogger, ofType, testAgent, tool } from './helpers.ts';

/** A tap record the way the plugin manager builds them. */
function tap<H extends HookName>(
  hook: H,
  pluginId: string,
  handler: HookHandler<H>,
  pluginConfig: PluginConfig = {},
): HookTapRecord {
  return { hook, pluginId, pluginConfig, handler: handler as unknown as HookHandler<HookName> };
}

const turnStart = {
  sessionId: 's1',
  turnId: 't1',
  userInput: 'hello',
  dynamicSections: [] as readonly string[],
};
const beforeToolUse = {
  sessionId: 's1',
  turnId: 't1',
  callId: 'c1',
  toolName: 'read_file',
  arguments: { path: 'a.txt', secret: 'token-123' } as Readonly<Record<string, unknown>>,
};

describe('HookRegistry (spec §3.6)', () => {
  it('runs handlers in the order given', async () => {
    const order: string[] = [];
    const registry = new HookRegistry(
      ['first', 'second', 'third'].map((id) => tap('TurnStart', id, () => void order.push(id))),
      memoryLogger(),
    );
    await registry.run('TurnStart', turnStart);
    expect(order).toEqual(['first', 'second', 'third']);
  });

  it('runs only the handlers of the hook that fired', async () => {
    const fired: string[] = [];
    const registry = new HookRegistry(
      [
        tap('TurnStart', 'a', () => void fired.push('TurnStart')),
        tap('TurnEnd', 'a', () => void fired.push('TurnEnd')),
      ],
      memoryLogger(),
    );
    await registry.run('TurnEnd', { sessionId: 's1', turnId: 't1', assistantOutput: 'bye' });
    expect(fired).toEqual(['TurnEnd']);
    expect(registry.has('TurnEnd')).toBe(true);
    expect(registry.has('BeforeCompact')).toBe(false);
  });

  it('a hook without handlers returns its payload unchanged', async () => {
    const registry = new HookRegistry([], memoryLogger());
    expect(await registry.run('TurnStart', turnStart)).toEqual({ data: turnStart });
  });

  it('Continue and no return value leave the data as it was', async () => {
    const registry = new HookRegistry(
      [tap('TurnStart', 'a', () => Continue), tap('TurnStart', 'b', () => undefined)],
      memoryLogger(),
    );
    expect(await registry.run('TurnStart', turnStart)).toEqual({ data: turnStart });
  });

  it('ContinueWith is a waterfall: the second handler sees the first one’s change', async () => {
    const seen: string[] = [];
    const registry = new HookRegistry(
      [
        tap('TurnStart', 'upper', ({ userInput }) =>
          continueWith<'TurnStart'>({ userInput: userInput.toUpperCase() }),
        ),
        tap('TurnStart', 'exclaim', ({ userInput }) => {
          seen.push(userInput);
          return continueWith<'TurnStart'>({ userInput: `${userInput}!` });
        }),
      ],
      memoryLogger(),
    );
    const outcome = await registry.run('TurnStart', turnStart);
    expect(seen).toEqual(['HELLO']);
    expect(outcome).toEqual({ data: { ...turnStart, userInput: 'HELLO!' } });
  });

  it('ContinueWith changes only the hook’s mutable fields', async () => {
    const registry = new HookRegistry(
      [
        tap('BeforeToolUse', 'sneaky', () =>
          continueWith({
            arguments: { path: 'b.txt' },
            toolName: 'delete_everything',
            sessionId: 'other',
            callId: 'x',
          }),
        ),
        tap('TurnEnd', 'rewriter', () => continueWith({ assistantOutput: 'rewritten' })),
        tap('AfterToolUse', 'redactor', () =>
          continueWith({ output: { content: '[redacted]', isError: false }, success: false }),
        ),
      ],
      memoryLogger(),
    );
    expect((await registry.run('BeforeToolUse', beforeToolUse)).data).toEqual({
      ...beforeToolUse,
      arguments: { path: 'b.txt' },
    });
    const turnEnd = { sessionId: 's1', turnId: 't1', assistantOutput: 'original' };
    expect((await registry.run('TurnEnd', turnEnd)).data).toEqual(turnEnd);
    const afterToolUse = {
      sessionId: 's1',
      turnId: 't1',
      callId: 'c1',
      toolName: 'read_file',
      output: { content: 'token-123', isError: false },
      durationMs: 3,
      success: true,
    };
    expect((await registry.run('AfterToolUse', afterToolUse)).data).toEqual({
      ...afterToolUse,
      output: { content: '[redacted]', isError: false },
    });
  });

  it('changing the payload in place changes nothing; only ContinueWith does', async () => {
    const seenBySecond: unknown[] = [];
    const registry = new HookRegistry(
      [
        tap('BeforeToolUse', 'logger', (payload) => {
          // A logging plugin that redacts in place before printing.
          delete (payload.arguments as Record<string, unknown>).secret;
          (payload as { toolName: string }).toolName = 'renamed';
        }),
        tap(
          'BeforeToolUse',
          'observer',
          (payload) => void seenBySecond.push(structuredClone(payload.arguments)),
        ),
      ],
      memoryLogger(),
    );
    const payload = structuredClone(beforeToolUse);
    const outcome = await registry.run('BeforeToolUse', payload);
    expect(outcome.data).toEqual(beforeToolUse);
    expect(payload).toEqual(beforeToolUse);
    expect(seenBySecond).toEqual([beforeToolUse.arguments]);
  });

  it('Abort stops later handlers and reports the plugin and reason, with the data as it was before the abort', async () => {
    const ran: string[] = [];
    const registry = new HookRegistry(
      [
        tap('BeforeToolUse', 'rewrite', () => {
          ran.push('rewrite');
          return continueWith<'BeforeToolUse'>({ arguments: { path: 'safe.txt' } });
        }),
        tap('BeforeToolUse', 'guard', () => {
          ran.push('guard');
          return abort('writes outside the sandbox are blocked');
        }),
        tap('BeforeToolUse', 'later', () => void ran.push('later')),
      ],
      memoryLogger(),
    );
    const outcome = await registry.run('BeforeToolUse', beforeToolUse);
    expect(ran).toEqual(['rewrite', 'guard']);
    expect(outcome).toEqual({
      data: { ...beforeToolUse, arguments: { path: 'safe.txt' } },
      aborted: { pluginId: 'guard', reason: 'writes outside the sandbox are blocked' },
    });
  });

  it('a throwing or rejecting handler is logged with its plugin and skipped; later handlers still run', async () => {
    const logger = memoryLogger();
    const ran: string[] = [];
    const registry = new HookRegistry(
      [
        tap('TurnStart', 'throws', () => {
          throw new Error('boom');
        }),
        tap('TurnStart', 'rejects', async () => {
          await Promise.resolve();
          throw new Error('async boom');
        }),
        tap('TurnStart', 'works', () => {
          ran.push('works');
          return continueWith<'TurnStart'>({ dynamicSections: ['still here'] });
        }),
      ],
      logger,
    );
    const outcome = await registry.run('TurnStart', turnStart);
    expect(ran).toEqual(['works']);
    expect(outcome).toEqual({ data: { ...turnStart, dynamicSections: ['still here'] } });
    expect(logger.lines.map((line) => ({ level: line.level, data: line.data }))).toEqual([
      {
        level: 'warn',
        data: expect.objectContaining({
          hook: 'TurnStart',
          pluginId: 'throws',
          error: expect.stringContaining('boom'),
        }),
      },
      {
        level: 'warn',
        data: expect.objectContaining({
          hook: 'TurnStart',
          pluginId: 'rejects',
          error: expect.stringContaining('async boom'),
        }),
      },
    ]);
  });

  it('every payload carries its own plugin’s pluginConfig and the hook name', async () => {
    const seen: { plugin: string; hook: string; config: unknown }[] = [];
    const record =
      (plugin: string) =>
      (payload: HookPayload<HookName>): void =>
        void seen.push({ plugin, hook: payload.hook, config: payload.pluginConfig });
    const registry = new HookRegistry(
      [
        tap('SessionStart', 'a', record('a'), { level: 'debug' }),
        tap('SessionStart', 'b', record('b'), { endpoint: 'https://example.test' }),
        tap('BeforeCompact', 'a', record('a'), { level: 'debug' }),
      ],
      memoryLogger(),
    );
    await registry.run('SessionStart', { sessionId: 's1' });
    await registry.run('BeforeCompact', { sessionId: 's1', messageCount: 4, estimatedTokens: 900 });
    expect(seen).toEqual([
      { plugin: 'a', hook: 'SessionStart', config: { level: 'debug' } },
      { plugin: 'b', hook: 'SessionStart', config: { endpoint: 'https://example.test' } },
      { plugin: 'a', hook: 'BeforeCompact', config: { level: 'debug' } },
    ]);
  });

  it('hook and pluginConfig are not part of the data the hook returns', async () => {
    const registry = new HookRegistry(
      [tap('TurnStart', 'a', (payload) => continueWith({ ...payload, userInput: 'changed' }), { secret: 1 })],
      memoryLogger(),
    );
    expect((await registry.run('TurnStart', turnStart)).data).toEqual({ ...turnStart, userInput: 'changed' });
  });
});

/** A plugin that records every hook payload it receives into `log`. */
function recorder(
  id: string,
  log: { plugin: string; payload: Record<string, unknown> }[],
  overrides: Partial<Plugin> = {},
): Plugin {
  const hooks = [
    'SessionStart',
    'SessionEnd',
    'TurnStart',
    'TurnEnd',
    'BeforeToolUse',
    'AfterToolUse',
  ] as const;
  return {
    id,
    displayName: id,
    description: `The ${id} plugin.`,
    apply: (registry) => {
      for (const hook of hooks) {
        registry.tap(hook, (payload) => void log.push({ plugin: id, payload: { ...payload } }));
      }
    },
    ...overrides,
  };
}

describe('hooks through plugins registered on the builder (spec §3.5, §3.6)', () => {
  it('handlers run in plugin registration order', async () => {
    const log: { plugin: string; payload: Record<string, unknown> }[] = [];
    const { agent, provider } = await testAgent({
      plugins: [recorder('zeta', log), recorder('alpha', log), recorder('mid', log)],
    });
    provider.enqueue(textReply('ok'));
    const session = await agent.newSession();
    await collect(session.send('hi'));
    const turnStarts = log.filter((entry) => entry.payload.hook === 'TurnStart').map((entry) => entry.plugin);
    expect(turnStarts).toEqual(['zeta', 'alpha', 'mid']);
  });

  it('setConfig pluginConfigs replaces the addPlugin default config whole, in initialize and in payloads', async () => {
    const initialized: PluginConfig[] = [];
    const log: { plugin: string; payload: Record<string, unknown> }[] = [];
    const withInit = (id: string): Plugin =>
      recorder(id, log, { initialize: (config) => void initialized.push(config) });
    const { agent, provider } = await testAgent({
      plugins: [
        { plugin: withInit('configured'), config: { level: 'info', format: 'json' } },
        { plugin: withInit('defaulted'), config: { retries: 3 } },
      ],
      config: { pluginConfigs: { configured: { level: 'debug' } } },
    });
    expect(initialized).toEqual([{ level: 'debug' }, { retries: 3 }]);
    provider.enqueue(textReply('ok'));
    const session = await agent.newSession();
    await collect(session.send('hi'));
    const configs = new Map(log.map((entry) => [entry.plugin, entry.payload.pluginConfig]));
    // Not merged: the default's `format` is gone.
    expect(configs.get('configured')).toEqual({ level: 'debug' });
    expect(configs.get('defaulted')).toEqual({ retries: 3 });
  });

  it('SessionStart, TurnStart, TurnEnd and SessionEnd carry the spec’s payloads in lifecycle order', async () => {
    const log: { plugin: string; payload: Record<string, unknown> }[] = [];
    const { agent, provider } = await testAgent({
      plugins: [{ plugin: recorder('observer', log), config: { verbose: true } }],
      tools: [tool('read_file')],
    });
    provider.enqueue(
      toolCallReply([{ toolName: 'read_file', callId: 'c1' }], 'Reading. '),
      textReply('It says hi.'),
    );
    const session = await agent.newSession();
    const events = await collect(session.send('what does a.txt say?'));
    const turnId = events[0]?.turnId;
    await session.close();

    const payloads = log.map((entry) => entry.payload);
    expect(payloads.map((payload) => payload.hook)).toEqual([
      'SessionStart',
      'TurnStart',
      'BeforeToolUse',
      'AfterToolUse',
      'TurnEnd',
      'SessionEnd',
    ]);
    const common = { pluginConfig: { verbose: true } };
    expect(payloads[0]).toEqual({ hook: 'SessionStart', sessionId: session.id, ...common });
    expect(payloads[1]).toEqual({
      hook: 'TurnStart',
      sessionId: session.id,
      turnId,
      userInput: 'what does a.txt say?',
      dynamicSections: [],
      ...common,
    });
    expect(payloads[4]).toEqual({
      hook: 'TurnEnd',
      sessionId: session.id,
      turnId,
      assistantOutput: 'Reading. It says hi.',
      ...common,
    });
    expect(payloads[5]).toMatchObject({ hook: 'SessionEnd', sessionId: session.id, ...common });
    // At least the user message and the two assistant replies of the turn.
    expect(payloads[5]?.messageCount).toBeGreaterThanOrEqual(3);
    expect(ofType(events, 'TurnComplete')).toHaveLength(1);
  });

  it('an Abort on TurnStart fails the turn with HOOK_ABORTED naming the plugin, and nothing is sent', async () => {
    const gate: Plugin = {
      id: 'gate',
      displayName: 'Gate',
      description: 'Blocks everything.',
      apply: (hooks) => hooks.tap('TurnStart', () => abort('maintenance window')),
    };
    const { agent, provider } = await testAgent({ plugins: [gate] });
    const events = await collect((await agent.newSession()).send('hi'));
    expect(events.at(-1)).toMatchObject({
      type: 'TurnComplete',
      status: 'failed',
      error: { code: 'HOOK_ABORTED', source: 'plugin' },
    });
    expect(ofType(events, 'Error')[0]?.error.message).toContain('gate');
    expect(ofType(events, 'Error')[0]?.error.message).toContain('maintenance window');
    expect(provider.requests).toHaveLength(0);
  });

  it('a TurnStart ContinueWith rewrites the user message the model receives', async () => {
    const rewriter: Plugin = {
      id: 'rewriter',
      displayName: 'Rewriter',
      description: 'Adds politeness.',
      apply: (hooks) =>
        hooks.tap('TurnStart', ({ userInput }) =>
          continueWith<'TurnStart'>({ userInput: `${userInput}, please` }),
        ),
    };
    const { agent, provider } = await testAgent({ plugins: [rewriter] });
    provider.enqueue(textReply('ok'));
    await collect((await agent.newSession()).send('list the files'));
    expect(provider.requests[0]?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'list the files, please' }] },
    ]);
  });

  it('a plugin that changes tool arguments in place without ContinueWith does not change what the tool runs with', async () => {
    const received: unknown[] = [];
    const redactingLogger: Plugin = {
      id: 'redacting-logger',
      displayName: 'Redacting logger',
      description: 'Logs tool calls without secrets.',
      apply: (hooks) =>
        hooks.tap('BeforeToolUse', (payload) => {
          delete (payload.arguments as Record<string, unknown>).token;
        }),
    };
    const { agent, provider } = await testAgent({
      plugins: [redactingLogger],
      tools: [tool('call_api', ({ arguments: args }) => (received.push(args), { content: 'done' }))],
    });
    provider.enqueue(
      toolCallReply([{ toolName: 'call_api', arguments: { url: '/x', token: 't-1' } }]),
      textReply('ok'),
    );
    await collect((await agent.newSession()).send('call it'));
    expect(received).toEqual([{ url: '/x', token: 't-1' }]);
  });
});
