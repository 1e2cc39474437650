import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentBuilder, type AgentEvent, type ToolHandler, type Turn } from '@youyou/agent';
import { ComponentStore, FileComponentSource } from '@youyou/agent/files';
import { ScriptedProvider, textReply, toolCallReply } from '@youyou/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempWorld, eventually, isAlive, pluginEntry, toolEntry, writeComponent } from './helpers.ts';
import type { TempWorld } from './helpers.ts';

let world: TempWorld;
const shutdowns: (() => Promise<void>)[] = [];
beforeEach(async () => {
  world = await createTempWorld();
});
afterEach(async () => {
  while (shutdowns.length > 0) await shutdowns.pop()?.();
  await world.cleanup();
});

interface Warning {
  fields: Readonly<Record<string, unknown>>;
  message: string;
}

async function buildAgent(
  provider: ScriptedProvider,
  options: { tools?: ToolHandler[]; warnings?: Warning[] } = {},
) {
  const warnings = options.warnings ?? [];
  const logger = {
    debug: () => undefined,
    info: () => undefined,
    error: () => undefined,
    warn: (fields: object, message: string) =>
      void warnings.push({ fields: fields as Record<string, unknown>, message }),
  };
  const builder = new AgentBuilder({ cwd: world.cwd, home: world.home })
    .setLogger(logger)
    .addProvider(provider)
    .addComponentSource(new FileComponentSource({ logger }));
  for (const tool of options.tools ?? []) builder.addTool(tool);
  const agent = await builder.build();
  shutdowns.push(() => agent.shutdown());
  return agent;
}

async function collect(turn: Turn): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of turn) events.push(event);
  return events;
}

function toolEnds(events: readonly AgentEvent[]) {
  return events.filter(
    (event): event is Extract<AgentEvent, { type: 'ToolCallEnd' }> => event.type === 'ToolCallEnd',
  );
}

const echoTool = (name: string, text: string) =>
  toolEntry(name, {
    command: './say.sh',
    description: `Says ${text}.`,
    extra: 'parameters: [{ name: path, type: string }]\n',
  });
const sayScript = (text: string) => ({ 'say.sh': `#!/bin/sh\ncat > /dev/null\necho ${text}\n` });

describe('the file channel inside an agent', () => {
  it('project overrides global overrides programmatic, and components() says so', async () => {
    await writeComponent(world.home, 'tool', 'greet', echoTool('greet', 'global'), sayScript('global'));
    await writeComponent(
      world.projectLayer,
      'tool',
      'greet',
      echoTool('greet', 'project'),
      sayScript('project'),
    );
    const programmatic: ToolHandler = {
      name: 'greet',
      description: 'Says programmatic.',
      parameters: { type: 'object', properties: {} },
      mutating: false,
      execute: () => ({ content: 'programmatic' }),
    };
    const provider = new ScriptedProvider().enqueue(
      toolCallReply([{ toolName: 'greet', arguments: {} }]),
      textReply('done'),
    );
    const agent = await buildAgent(provider, { tools: [programmatic] });
    expect(agent.components().filter((component) => component.name === 'greet')).toEqual([
      expect.objectContaining({ layer: 'programmatic', overriddenBy: 'project', enabled: false }),
      expect.objectContaining({
        layer: 'global',
        overriddenBy: 'project',
        enabled: false,
        path: join(world.home, 'tools', 'greet'),
      }),
      expect.objectContaining({ layer: 'project', enabled: true, description: 'Says project.' }),
    ]);
    const session = await agent.newSession();
    const events = await collect(session.send('greet me'));
    expect(toolEnds(events)).toEqual([
      expect.objectContaining({ toolName: 'greet', output: 'project\n', success: true }),
    ]);
    await session.close();
  });

  it('a file plugin hook rewrites the arguments a tool receives', async () => {
    await writeComponent(
      world.home,
      'plugin',
      'sandbox',
      pluginEntry('sandbox', { BeforeToolUse: './rewrite.py' }),
      {
        'rewrite.py':
          '#!/usr/bin/env python3\nimport json, sys\np = json.load(sys.stdin)\nprint(json.dumps({"data": {"arguments": {"path": p["plugin_config"]["root"] + "/" + p["arguments"]["path"]}}}))\n',
      },
    );
    await writeFile(join(world.home, 'config.yaml'), 'plugin_configs:\n  sandbox: { root: /sandbox }\n');
    const received: unknown[] = [];
    const reader: ToolHandler = {
      name: 'read',
      description: 'Reads.',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
      mutating: false,
      execute: (input) => {
        received.push(input.arguments);
        return { content: 'ok' };
      },
    };
    const provider = new ScriptedProvider().enqueue(
      toolCallReply([{ toolName: 'read', arguments: { path: 'a.txt' } }]),
      textReply('done'),
    );
    const agent = await buildAgent(provider, { tools: [reader] });
    const session = await agent.newSession();
    await collect(session.send('read a.txt'));
    expect(received).toEqual([{ path: '/sandbox/a.txt' }]);
    await session.close();
  });

  it('a file plugin hook that aborts blocks the call; one printing garbage only warns', async () => {
    await writeComponent(
      world.home,
      'plugin',
      'guard',
      pluginEntry('guard', { BeforeToolUse: './guard.sh' }),
      {
        'guard.sh': '#!/bin/sh\necho \'{"abort": true, "reason": "writes are frozen"}\'\n',
      },
    );
    await writeComponent(
      world.projectLayer,
      'plugin',
      'noise',
      pluginEntry('noise', { AfterToolUse: './noise.sh' }),
      {
        'noise.sh': '#!/bin/sh\necho "%%% garbage"\necho "stack trace" >&2\n',
      },
    );
    await writeComponent(world.home, 'tool', 'write', toolEntry('write', { command: './w.sh' }), {
      'w.sh': '#!/bin/sh\ntouch "$YOUYOU_COMPONENT_DIR/ran"\n',
    });
    const warnings: Warning[] = [];
    const provider = new ScriptedProvider().enqueue(
      toolCallReply([{ toolName: 'write', arguments: {} }]),
      textReply('ok'),
    );
    const agent = await buildAgent(provider, { warnings });
    const session = await agent.newSession();
    const events = await collect(session.send('write'));
    expect(toolEnds(events)[0]).toMatchObject({
      success: false,
      output: expect.stringMatching(/blocked by plugin 'guard': writes are frozen/),
    });
    await expect(readFile(join(world.home, 'tools', 'write', 'ran'))).rejects.toThrow();
    expect(warnings.find((warning) => warning.fields['plugin'] === 'noise')?.fields).toMatchObject({
      hook: 'AfterToolUse',
      stderr: 'stack trace\n',
      problem: expect.stringMatching(/not JSON/),
    });
    await session.close();
  });

  it('a cancelled turn waits for a running mutating file tool: it finishes its write and its result is recorded', async () => {
    await writeComponent(
      world.home,
      'tool',
      'write',
      toolEntry('write', { command: './write.sh', extra: 'mutating: true\n' }),
      {
        'write.sh':
          '#!/bin/sh\ntouch "$YOUYOU_COMPONENT_DIR/started"\nwhile [ ! -e "$YOUYOU_COMPONENT_DIR/go" ]; do sleep 0.02; done\necho whole > "$YOUYOU_COMPONENT_DIR/out"\necho wrote it\n',
      },
    );
    const provider = new ScriptedProvider().enqueue(
      toolCallReply([
        { toolName: 'write', arguments: {}, callId: 'first' },
        { toolName: 'write', arguments: {}, callId: 'second' },
      ]),
    );
    const agent = await buildAgent(provider);
    const session = await agent.newSession();
    const turn = session.send('write');
    const collecting = collect(turn);
    const folder = join(world.home, 'tools', 'write');
    await eventually(
      async () => (await readFile(join(folder, 'started')).catch(() => undefined)) !== undefined,
      10_000,
    );
    turn.cancel();
    await writeFile(join(folder, 'go'), '');
    const events = await collecting;
    expect(await readFile(join(folder, 'out'), 'utf8')).toBe('whole\n');
    expect(toolEnds(events).map((end) => [end.callId, end.success, end.output])).toEqual([
      ['first', true, 'wrote it\n'],
      ['second', false, expect.stringMatching(/REQUEST_CANCELLED/)],
    ]);
    expect(events.at(-1)?.type).toBe('TurnCancelled');
    await session.close();
  });

  it('the dispatcher timeout kills a file tool and its grandchild; the turn goes on', async () => {
    await writeComponent(world.home, 'tool', 'hang', toolEntry('hang', { command: './hang.sh' }), {
      'hang.sh': '#!/bin/sh\nsleep 30 &\necho "$$ $!" > "$YOUYOU_COMPONENT_DIR/pids"\nwait\n',
    });
    await writeFile(join(world.home, 'config.yaml'), 'tool_timeout_ms: 300\n');
    const provider = new ScriptedProvider().enqueue(
      toolCallReply([{ toolName: 'hang', arguments: {} }]),
      textReply('gave up'),
    );
    const agent = await buildAgent(provider);
    expect(agent.config.toolTimeoutMs).toBe(300);
    const session = await agent.newSession();
    const events = await collect(session.send('hang'));
    expect(toolEnds(events)[0]).toMatchObject({
      success: false,
      output: expect.stringMatching(/TOOL_TIMEOUT/),
    });
    for (const pid of (await readFile(join(world.home, 'tools', 'hang', 'pids'), 'utf8'))
      .trim()
      .split(' ')
      .map(Number)) {
      await eventually(async () => !(await isAlive(pid)));
    }
    await session.close();
  });

  it('a SKILL.md skill is invoked with /name and its prompt reaches the model', async () => {
    await writeComponent(
      world.home,
      'skill',
      'haiku',
      '---\nname: haiku\ndescription: Answer in a haiku.\n---\nAnswer in exactly three lines.\n',
      {},
      'SKILL.md',
    );
    const provider = new ScriptedProvider().enqueue(textReply('an old silent pond'));
    const agent = await buildAgent(provider);
    const session = await agent.newSession();
    await collect(session.send('/haiku the sea'));
    expect(JSON.stringify(provider.requests[0]?.messages)).toContain('Answer in exactly three lines.');
    expect(provider.requests[0]?.systemPrompt).toContain('Answer in a haiku.');
    await session.close();
  });

  it('an invoked skill tells the model its folder’s absolute path so its relative references resolve', async () => {
    const directory = await writeComponent(
      world.home,
      'skill',
      'pdf',
      '---\nname: pdf\ndescription: Work with PDFs.\n---\nFor forms, read REFERENCE.md and run scripts/fill.py.\n',
      { 'REFERENCE.md': '# Forms\n' },
      'SKILL.md',
    );
    const provider = new ScriptedProvider().enqueue(textReply('ok'));
    const agent = await buildAgent(provider);
    const session = await agent.newSession();
    await collect(session.send('/pdf fill the form'));
    const sent = JSON.stringify(provider.requests[0]?.messages);
    expect(sent).toContain(`directory=\\"${directory}\\"`);
    expect(sent).toContain(`This skill's files are in ${directory}.`);
    expect(sent).toContain('you may read files there');
    await session.close();
  });

  it('AGENTS.md at the project root reaches the system prompt, before .youyou/AGENT.md', async () => {
    await writeFile(join(world.cwd, 'AGENTS.md'), 'Shared: run npm test before committing.\n');
    await mkdir(world.projectLayer, { recursive: true });
    await writeFile(join(world.projectLayer, 'AGENT.md'), 'YouYou: answer in English.\n');
    const provider = new ScriptedProvider().enqueue(textReply('ok'));
    const agent = await buildAgent(provider);
    const session = await agent.newSession();
    await collect(session.send('hi'));
    const prompt = provider.requests[0]?.systemPrompt ?? '';
    expect(prompt).toContain('Shared: run npm test before committing.');
    expect(prompt.indexOf('Shared: run npm test')).toBeLessThan(prompt.indexOf('YouYou: answer in English.'));
    await session.close();
  });

  it('a plugin disabled through the component store stops running from the next session', async () => {
    await writeComponent(world.home, 'plugin', 'count', pluginEntry('count', { TurnStart: './count.sh' }), {
      'count.sh': '#!/bin/sh\necho x >> "$YOUYOU_COMPONENT_DIR/turns"\n',
    });
    const provider = new ScriptedProvider().enqueue(textReply('one'), textReply('two'), textReply('three'));
    const agent = await buildAgent(provider);
    const turns = join(world.home, 'plugins', 'count', 'turns');
    const first = await agent.newSession();
    await collect(first.send('hi'));
    await new ComponentStore({ cwd: world.cwd, home: world.home }).setPluginEnabled('count', false);
    await collect(first.send('still on in this session'));
    await first.close();
    expect((await readFile(turns, 'utf8')).split('\n').filter(Boolean)).toHaveLength(2);
    const second = await agent.newSession();
    await collect(second.send('off now'));
    await second.close();
    expect((await readFile(turns, 'utf8')).split('\n').filter(Boolean)).toHaveLength(2);
    expect(agent.components().find((component) => component.name === 'count')).toMatchObject({
      enabled: false,
    });
  });

  it('enablement: a project index.md beats a global one; a plugin disabled in index.md does not run', async () => {
    const counter = (name: string) => ({
      [`${name}.sh`]: `#!/bin/sh\necho x >> "$YOUYOU_HOME/${name}.count"\n`,
    });
    await writeComponent(
      world.home,
      'plugin',
      'flip',
      pluginEntry('flip', { TurnStart: './flip.sh' }, 'enabled: false\n'),
      counter('flip'),
    );
    await writeComponent(
      world.projectLayer,
      'plugin',
      'flip',
      pluginEntry('flip', { TurnStart: './flip.sh' }, 'enabled: true\n'),
      counter('flip'),
    );
    await writeComponent(
      world.home,
      'plugin',
      'off',
      pluginEntry('off', { TurnStart: './off.sh' }, 'enabled: false\n'),
      counter('off'),
    );
    const agent = await buildAgent(new ScriptedProvider().enqueue(textReply('hi')));
    const session = await agent.newSession();
    await collect(session.send('hello'));
    await session.close();
    expect(await readFile(join(world.home, 'flip.count'), 'utf8')).toBe('x\n');
    await expect(readFile(join(world.home, 'off.count'), 'utf8')).rejects.toThrow();
    expect(agent.components().filter((component) => component.kind === 'plugin')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'flip', layer: 'project', enabled: true }),
        expect.objectContaining({ name: 'off', layer: 'global', enabled: false }),
      ]),
    );
  });

  it('skipped folders reach agent.diagnostics; a broken config.yaml fails the build with CONFIG_PARSE_ERROR', async () => {
    await writeComponent(world.home, 'tool', 'broken', '---\nversion: 7\nname: broken\n---\n');
    const agent = await buildAgent(new ScriptedProvider());
    expect(agent.diagnostics).toEqual([
      expect.objectContaining({
        path: join(world.home, 'tools', 'broken', 'index.md'),
        kind: 'tool',
        layer: 'global',
        severity: 'error',
      }),
    ]);
    await writeFile(join(world.home, 'config.yaml'), 'compact_threshold: [\n');
    await expect(buildAgent(new ScriptedProvider())).rejects.toMatchObject({ code: 'CONFIG_PARSE_ERROR' });
  });
});
