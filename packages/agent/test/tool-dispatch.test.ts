import {
  continueWith,
  abort,
  MAX_TOOL_OUTPUT_BYTES,
  truncateOutput,
  type Plugin,
  type ToolContext,
} from '@youyou/agent';
import { textReply, toolCallReply } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { collect, deferred, delay, ofType, testAgent, tool } from './helpers.ts';

const pathSchema = {
  type: 'object',
  properties: { path: { type: 'string' }, lines: { type: 'integer', minimum: 1 } },
  required: ['path'],
  additionalProperties: false,
};

describe('tool dispatch (spec §4.4)', () => {
  it('an all read-only batch runs concurrently', async () => {
    let running = 0;
    let peak = 0;
    const slowRead = (name: string) =>
      tool(name, async () => {
        running++;
        peak = Math.max(peak, running);
        await delay(30);
        running--;
        return { content: name };
      });
    const { agent, provider } = await testAgent({ tools: [slowRead('a'), slowRead('b'), slowRead('c')] });
    provider.enqueue(
      toolCallReply([{ toolName: 'a' }, { toolName: 'b' }, { toolName: 'c' }]),
      textReply('done'),
    );
    await collect((await agent.newSession()).send('go'));
    expect(peak).toBe(3);
  });

  it('a mutating tool in a batch forces serial execution in model order', async () => {
    const order: string[] = [];
    let running = 0;
    let peak = 0;
    const step = (name: string, mutating: boolean) =>
      tool(
        name,
        async () => {
          running++;
          peak = Math.max(peak, running);
          order.push(`start ${name}`);
          await delay(name === 'read1' ? 30 : 5);
          order.push(`end ${name}`);
          running--;
          return { content: name };
        },
        { mutating },
      );
    const { agent, provider } = await testAgent({
      tools: [step('read1', false), step('write', true), step('read2', false)],
    });
    provider.enqueue(
      toolCallReply([{ toolName: 'read1' }, { toolName: 'write' }, { toolName: 'read2' }]),
      textReply('done'),
    );
    await collect((await agent.newSession()).send('go'));
    expect(peak).toBe(1);
    expect(order).toEqual([
      'start read1',
      'end read1',
      'start write',
      'end write',
      'start read2',
      'end read2',
    ]);
  });

  it('results are recorded in call order even when later calls finish first', async () => {
    const timed = (name: string, ms: number) =>
      tool(name, async () => {
        await delay(ms);
        return { content: `${name} result` };
      });
    const { agent, provider } = await testAgent({ tools: [timed('slow', 40), timed('fast', 1)] });
    provider.enqueue(
      toolCallReply([
        { toolName: 'slow', callId: 'c1' },
        { toolName: 'fast', callId: 'c2' },
      ]),
      textReply('done'),
    );
    const events = await collect((await agent.newSession()).send('go'));
    expect(ofType(events, 'ToolCallEnd').map((event) => event.callId)).toEqual(['c2', 'c1']);
    const toolMessages = provider.requests[1]?.messages.filter((message) => message.role === 'tool');
    expect(toolMessages?.map((message) => (message.role === 'tool' ? message.callId : ''))).toEqual([
      'c1',
      'c2',
    ]);
  });

  it('every ToolCallStart comes before its ToolCallEnd', async () => {
    const { agent, provider } = await testAgent({
      tools: [tool('a'), tool('b', undefined, { mutating: true })],
    });
    provider.enqueue(
      toolCallReply([{ toolName: 'a' }, { toolName: 'b' }, { toolName: 'a' }]),
      textReply('done'),
    );
    const events = await collect((await agent.newSession()).send('go'));
    for (const end of ofType(events, 'ToolCallEnd')) {
      const start = events.findIndex(
        (event) => event.type === 'ToolCallStart' && event.callId === end.callId,
      );
      expect(start).toBeGreaterThanOrEqual(0);
      expect(start).toBeLessThan(events.indexOf(end));
    }
  });

  it('arguments failing the JSON Schema return a clear error result to the model and the turn goes on', async () => {
    let executed = false;
    const read = tool('read_file', () => ((executed = true), { content: 'x' }), { parameters: pathSchema });
    const { agent, provider } = await testAgent({ tools: [read] });
    provider.enqueue(
      toolCallReply([{ toolName: 'read_file', arguments: { path: 7, extra: true } }]),
      textReply('sorry'),
    );
    const events = await collect((await agent.newSession()).send('go'));
    const end = ofType(events, 'ToolCallEnd')[0];
    expect(executed).toBe(false);
    expect(end?.success).toBe(false);
    expect(end?.output).toContain('INVALID_INPUT');
    expect(end?.output).toContain('arguments/path must be string');
    expect(end?.output).toContain("'extra'");
    expect(ofType(events, 'TurnComplete')[0]?.status).toBe('completed');
  });

  it('arguments that are not JSON return an error result, not a crash', async () => {
    const { agent, provider } = await testAgent({
      tools: [tool('read_file', undefined, { parameters: pathSchema })],
    });
    provider.enqueue(
      toolCallReply([{ toolName: 'read_file', arguments: '{"path": "a.txt"' }]),
      textReply('retrying'),
    );
    const events = await collect((await agent.newSession()).send('go'));
    expect(ofType(events, 'ToolCallEnd')[0]?.output).toMatch(/INVALID_INPUT.*not a JSON object/);
  });

  it('schema defaults are applied before the tool runs', async () => {
    let seen: unknown;
    const schema = { type: 'object', properties: { lines: { type: 'integer', default: 10 } } };
    const { agent, provider } = await testAgent({
      tools: [
        tool('head', ({ arguments: args }) => ((seen = args), { content: '' }), { parameters: schema }),
      ],
    });
    provider.enqueue(toolCallReply([{ toolName: 'head', arguments: {} }]), textReply('ok'));
    await collect((await agent.newSession()).send('go'));
    expect(seen).toEqual({ lines: 10 });
  });

  it('an unknown tool returns TOOL_NOT_FOUND to the model', async () => {
    const { agent, provider } = await testAgent({ tools: [tool('known')] });
    provider.enqueue(toolCallReply([{ toolName: 'imaginary' }]), textReply('ok'));
    const events = await collect((await agent.newSession()).send('go'));
    const end = ofType(events, 'ToolCallEnd')[0];
    expect(end?.output).toContain('TOOL_NOT_FOUND');
    expect(end?.output).toContain('known');
    const result = provider.requests[1]?.messages.at(-1);
    expect(result).toMatchObject({ role: 'tool', isError: true });
  });

  it('a tool that throws returns TOOL_EXECUTION_ERROR with its message', async () => {
    const { agent, provider } = await testAgent({
      tools: [
        tool('explode', () => {
          throw new Error('disk on fire');
        }),
      ],
    });
    provider.enqueue(toolCallReply([{ toolName: 'explode' }]), textReply('ok'));
    const events = await collect((await agent.newSession()).send('go'));
    expect(ofType(events, 'ToolCallEnd')[0]?.output).toMatch(/TOOL_EXECUTION_ERROR.*disk on fire/);
  });

  it('a tool returning a malformed output is reported as TOOL_EXECUTION_ERROR', async () => {
    const { agent, provider } = await testAgent({ tools: [tool('weird', () => ({ content: 42 }) as never)] });
    provider.enqueue(toolCallReply([{ toolName: 'weird' }]), textReply('ok'));
    const events = await collect((await agent.newSession()).send('go'));
    expect(ofType(events, 'ToolCallEnd')[0]?.output).toMatch(/TOOL_EXECUTION_ERROR.*invalid output/);
  });

  it('a call past its timeout returns TOOL_TIMEOUT and its signal is aborted', async () => {
    let signal: AbortSignal | undefined;
    const hang = tool(
      'hang',
      (_input, context: ToolContext) => {
        signal = context.signal;
        return new Promise(() => {});
      },
      { timeoutMs: 50 },
    );
    const { agent, provider } = await testAgent({ tools: [hang] });
    provider.enqueue(toolCallReply([{ toolName: 'hang' }]), textReply('ok'));
    const events = await collect((await agent.newSession()).send('go'));
    expect(ofType(events, 'ToolCallEnd')[0]?.output).toContain('TOOL_TIMEOUT');
    expect(signal?.aborted).toBe(true);
  });

  it('the configured toolTimeoutMs applies to tools without their own', async () => {
    const { agent, provider } = await testAgent({
      tools: [tool('hang', () => new Promise(() => {}))],
      config: { toolTimeoutMs: 40 },
    });
    provider.enqueue(toolCallReply([{ toolName: 'hang' }]), textReply('ok'));
    const events = await collect((await agent.newSession()).send('go'));
    expect(ofType(events, 'ToolCallEnd')[0]?.output).toMatch(/TOOL_TIMEOUT.*40 ms/);
  });

  it('output over 1 MB is truncated on a UTF-8 boundary with a notice', async () => {
    const big = '汉'.repeat(400_000); // 1.2 MB of 3-byte characters
    const { agent, provider } = await testAgent({ tools: [tool('dump', () => ({ content: big }))] });
    provider.enqueue(toolCallReply([{ toolName: 'dump' }]), textReply('ok'));
    const events = await collect((await agent.newSession()).send('go'));
    const output = ofType(events, 'ToolCallEnd')[0]?.output ?? '';
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_BYTES);
    expect(output).toContain('[Output truncated');
    expect(output.includes('\uFFFD')).toBe(false);
    expect(output.startsWith('汉汉汉')).toBe(true);
  });

  it('truncation never splits a multi-byte character at any cut point', () => {
    const text = 'a😀é汉'.repeat(50);
    for (let limit = 120; limit < 260; limit++) {
      const cut = truncateOutput(text, limit);
      expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(limit);
      expect(cut.includes('\uFFFD')).toBe(false);
    }
    expect(truncateOutput('short', 100)).toBe('short');
  });
});

describe('tool hooks (one dispatch point for every tool call)', () => {
  const hookPlugin = (apply: Plugin['apply']): Plugin => ({
    id: 'policy',
    displayName: 'Policy',
    description: 'Tool policy.',
    apply,
  });

  it('BeforeToolUse ContinueWith rewrites the arguments the tool receives', async () => {
    let received: unknown;
    const plugin = hookPlugin((hooks) =>
      hooks.tap('BeforeToolUse', ({ arguments: args }) =>
        continueWith({ arguments: { ...args, path: `safe/${String(args.path)}` } }),
      ),
    );
    const read = tool('read_file', ({ arguments: args }) => ((received = args), { content: 'x' }), {
      parameters: pathSchema,
    });
    const { agent, provider } = await testAgent({ tools: [read], plugins: [plugin] });
    provider.enqueue(
      toolCallReply([{ toolName: 'read_file', arguments: { path: 'a.txt' } }]),
      textReply('ok'),
    );
    const events = await collect((await agent.newSession()).send('go'));
    expect(received).toEqual({ path: 'safe/a.txt' });
    expect(ofType(events, 'ToolCallEnd')[0]?.arguments).toEqual({ path: 'safe/a.txt' });
  });

  it('rewritten arguments are validated against the schema too', async () => {
    const plugin = hookPlugin((hooks) =>
      hooks.tap('BeforeToolUse', () => continueWith({ arguments: { path: 1 } })),
    );
    const { agent, provider } = await testAgent({
      tools: [tool('read_file', undefined, { parameters: pathSchema })],
      plugins: [plugin],
    });
    provider.enqueue(toolCallReply([{ toolName: 'read_file', arguments: { path: 'a' } }]), textReply('ok'));
    const events = await collect((await agent.newSession()).send('go'));
    expect(ofType(events, 'ToolCallEnd')[0]?.output).toContain('INVALID_INPUT');
  });

  it('BeforeToolUse Abort stops the call and returns the reason to the model; AfterToolUse still fires', async () => {
    let executed = false;
    const after: string[] = [];
    const plugin = hookPlugin((hooks) => {
      hooks.tap('BeforeToolUse', ({ toolName }) =>
        toolName === 'rm' ? abort('deleting is not allowed here') : undefined,
      );
      hooks.tap('AfterToolUse', ({ toolName, success }) => void after.push(`${toolName}:${success}`));
    });
    const { agent, provider } = await testAgent({
      tools: [tool('rm', () => ((executed = true), { content: '' }), { mutating: true })],
      plugins: [plugin],
    });
    provider.enqueue(toolCallReply([{ toolName: 'rm' }]), textReply('ok'));
    const events = await collect((await agent.newSession()).send('go'));
    expect(executed).toBe(false);
    expect(ofType(events, 'ToolCallEnd')[0]?.output).toMatch(
      /blocked by plugin 'policy': deleting is not allowed here/,
    );
    expect(after).toEqual(['rm:false']);
  });

  it('AfterToolUse fires for every call: success, failure, unknown tool, invalid arguments', async () => {
    const after: string[] = [];
    const plugin = hookPlugin((hooks) =>
      hooks.tap(
        'AfterToolUse',
        ({ toolName, success, durationMs }) => void after.push(`${toolName}:${success}:${typeof durationMs}`),
      ),
    );
    const { agent, provider } = await testAgent({
      tools: [
        tool('ok'),
        tool('fail', () => {
          throw new Error('x');
        }),
        tool('strict', undefined, { parameters: pathSchema }),
      ],
      plugins: [plugin],
    });
    provider.enqueue(
      toolCallReply([
        { toolName: 'ok' },
        { toolName: 'fail' },
        { toolName: 'missing' },
        { toolName: 'strict', arguments: {} },
      ]),
      textReply('done'),
    );
    await collect((await agent.newSession()).send('go'));
    expect(after.sort()).toEqual([
      'fail:false:number',
      'missing:false:number',
      'ok:true:number',
      'strict:false:number',
    ]);
  });

  it('AfterToolUse ContinueWith can replace the output the model sees', async () => {
    const plugin = hookPlugin((hooks) =>
      hooks.tap('AfterToolUse', ({ output }) =>
        continueWith({
          output: { content: output.content.replace(/sk-\w+/g, '[redacted]'), isError: output.isError },
        }),
      ),
    );
    const { agent, provider } = await testAgent({
      tools: [tool('env', () => ({ content: 'KEY=sk-abc123' }))],
      plugins: [plugin],
    });
    provider.enqueue(toolCallReply([{ toolName: 'env' }]), textReply('ok'));
    const events = await collect((await agent.newSession()).send('go'));
    expect(ofType(events, 'ToolCallEnd')[0]?.output).toBe('KEY=[redacted]');
    expect(provider.requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'KEY=[redacted]' });
  });

  it('tool metadata of programmatic tools reaches ToolCallEnd and the session log', async () => {
    const { agent, provider } = await testAgent({
      tools: [tool('stat', () => ({ content: '3 files', metadata: { files: 3 } }))],
    });
    provider.enqueue(toolCallReply([{ toolName: 'stat' }]), textReply('ok'));
    const events = await collect((await agent.newSession()).send('go'));
    expect(ofType(events, 'ToolCallEnd')[0]?.metadata).toEqual({ files: 3 });
  });
});

describe('max_tool_calls_per_turn', () => {
  it('reaching the limit ends the turn with MAX_TOOL_CALLS_EXCEEDED and tells the model why', async () => {
    let runs = 0;
    const { agent, provider } = await testAgent({
      tools: [tool('step', () => ((runs += 1), { content: 'ok' }))],
      config: { maxToolCallsPerTurn: 3 },
    });
    provider.enqueue(
      toolCallReply([{ toolName: 'step' }, { toolName: 'step' }]),
      toolCallReply([{ toolName: 'step' }, { toolName: 'step', callId: 'over' }]),
      textReply('next turn'),
    );
    const session = await agent.newSession();
    const events = await collect(session.send('go'));
    expect(runs).toBe(3);
    const refused = ofType(events, 'ToolCallEnd').find((event) => event.callId === 'over');
    expect(refused?.output).toContain('MAX_TOOL_CALLS_EXCEEDED');
    expect(ofType(events, 'Error')[0]?.error.code).toBe('MAX_TOOL_CALLS_EXCEEDED');
    expect(events.at(-1)).toMatchObject({ type: 'TurnComplete', status: 'failed', toolCalls: 3 });
    await collect(session.send('continue'));
    const lastTool = provider.requests[2]?.messages.filter((message) => message.role === 'tool').at(-1);
    expect(lastTool).toMatchObject({ callId: 'over', isError: true });
    expect(lastTool?.role === 'tool' && lastTool.content).toContain('limit of 3 tool calls');
  });
});

describe('a cancel reaches running tools as a notice, not a stop (spec §6.2)', () => {
  it('a cancel aborts cancelSignal, leaves the stop signal alone, and waits for the tool result', async () => {
    const started = deferred();
    const finish = deferred();
    let stopped = false;
    let told = false;
    const watcher = tool('watch', async (_input, context) => {
      context.signal.addEventListener('abort', () => (stopped = true));
      context.cancelSignal.addEventListener('abort', () => (told = true));
      started.resolve();
      await finish.promise;
      return { content: 'finished its work' };
    });
    const { agent, provider } = await testAgent({ tools: [watcher] });
    provider.enqueue(toolCallReply([{ toolName: 'watch' }]));
    const turn = (await agent.newSession()).send('go');
    const collecting = collect(turn);
    await started.promise;
    turn.cancel();
    expect(told).toBe(true);
    finish.resolve();
    const events = await collecting;
    expect(stopped).toBe(false);
    expect(ofType(events, 'ToolCallEnd')[0]).toMatchObject({ output: 'finished its work', success: true });
    expect(events.at(-1)?.type).toBe('TurnCancelled');
  });

  it('the tool timeout still aborts the stop signal of a running tool', async () => {
    let stopped: unknown;
    const slow = tool(
      'slow',
      (_input, context) =>
        new Promise((resolve) =>
          context.signal.addEventListener('abort', () => {
            stopped = context.signal.reason;
            resolve({ content: 'stopped' });
          }),
        ),
      { timeoutMs: 50 },
    );
    const { agent, provider } = await testAgent({ tools: [slow] });
    provider.enqueue(toolCallReply([{ toolName: 'slow' }]), textReply('ok'));
    const events = await collect((await agent.newSession()).send('go'));
    expect(ofType(events, 'ToolCallEnd')[0]?.output).toMatch(/TOOL_TIMEOUT/);
    expect(stopped).toMatchObject({ code: 'TOOL_TIMEOUT' });
  });
});
