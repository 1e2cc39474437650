import {
  AgentBuilder,
  AgentError,
  InMemoryMemoryStorage,
  InMemorySessionStorage,
  type ComponentSource,
  type LoadedComponents,
  type Plugin,
  type SkillDefinition,
} from '@youyou/agent';
import { ScriptedProvider, scriptedModel, textReply } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { collect, testAgent, testBuilder, tool } from './helpers.ts';

async function buildError(promise: Promise<unknown>): Promise<AgentError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AgentError);
  return error as AgentError;
}

const skill = (
  name: string,
  requiredTools: string[] = [],
  overrides: Partial<SkillDefinition> = {},
): SkillDefinition => ({
  name,
  displayName: name,
  description: `The ${name} skill.`,
  prompt: `Do ${name}.`,
  requiredTools,
  allowImplicitInvocation: false,
  ...overrides,
});

const plugin = (id: string, overrides: Partial<Plugin> = {}): Plugin => ({
  id,
  displayName: id,
  description: `The ${id} plugin.`,
  apply: () => {},
  ...overrides,
});

const emptyLayer = { tools: [], skills: [], plugins: [] };

function source(
  loaded: Partial<LoadedComponents>,
): ComponentSource & { loads: number; set(next: Partial<LoadedComponents>): void } {
  let current = loaded;
  const result = {
    loads: 0,
    set(next: Partial<LoadedComponents>) {
      current = next;
    },
    async load(): Promise<LoadedComponents> {
      result.loads++;
      return { global: emptyLayer, project: emptyLayer, diagnostics: [], ...current };
    },
  };
  return result;
}

describe('build validation (spec §6.1)', () => {
  it('build without a model provider fails with NO_MODEL_PROVIDER', async () => {
    const error = await buildError(new AgentBuilder({ home: '/nonexistent-youyou-home' }).build());
    expect(error.code).toBe('NO_MODEL_PROVIDER');
  });

  it('two providers with one id fail with NAME_CONFLICT', async () => {
    const { builder } = await testBuilder({
      providers: [
        new ScriptedProvider({ id: 'p' }),
        new ScriptedProvider({ id: 'p', models: [scriptedModel('other')] }),
      ],
    });
    const error = await buildError(builder.build());
    expect(error.code).toBe('NAME_CONFLICT');
    expect(error.message).toContain("'p'");
  });

  it('a model ID declared by two providers fails with NAME_CONFLICT naming both', async () => {
    const { builder } = await testBuilder({
      providers: [new ScriptedProvider({ id: 'a' }), new ScriptedProvider({ id: 'b' })],
    });
    const error = await buildError(builder.build());
    expect(error.code).toBe('NAME_CONFLICT');
    expect(error.details).toMatchObject({ modelId: 'scripted-model', providers: ['a', 'b'] });
  });

  it('two programmatic tools with one name fail with NAME_CONFLICT', async () => {
    const { builder } = await testBuilder({ tools: [tool('read'), tool('read')] });
    expect((await buildError(builder.build())).code).toBe('NAME_CONFLICT');
  });

  it('two programmatic skills with one name fail with NAME_CONFLICT', async () => {
    const { builder } = await testBuilder({ skills: [skill('commit'), skill('commit')] });
    expect((await buildError(builder.build())).code).toBe('NAME_CONFLICT');
  });

  it('two programmatic plugins with one id fail with NAME_CONFLICT', async () => {
    const { builder } = await testBuilder({ plugins: [plugin('audit'), plugin('audit')] });
    expect((await buildError(builder.build())).code).toBe('NAME_CONFLICT');
  });

  it('a skill whose tool is not registered fails with SKILL_DEPENDENCY_NOT_MET', async () => {
    const { builder } = await testBuilder({
      tools: [tool('read')],
      skills: [skill('deploy', ['read', 'shell'])],
    });
    const error = await buildError(builder.build());
    expect(error.code).toBe('SKILL_DEPENDENCY_NOT_MET');
    expect(error.details).toMatchObject({ skill: 'deploy', missingTools: ['shell'] });
  });

  it('a second session storage fails with STORAGE_DUPLICATE', async () => {
    const { builder } = await testBuilder();
    builder.setSessionStorage(new InMemorySessionStorage()).setSessionStorage(new InMemorySessionStorage());
    expect((await buildError(builder.build())).code).toBe('STORAGE_DUPLICATE');
  });

  it('a second memory storage fails with STORAGE_DUPLICATE', async () => {
    const { builder } = await testBuilder();
    builder.setMemoryStorage(new InMemoryMemoryStorage()).setMemoryStorage(new InMemoryMemoryStorage());
    expect((await buildError(builder.build())).code).toBe('STORAGE_DUPLICATE');
  });

  it('an out-of-range setting fails with CONFIG_PARSE_ERROR naming the field', async () => {
    const { builder } = await testBuilder({ config: { compactThreshold: 1.5 } });
    const error = await buildError(builder.build());
    expect(error.code).toBe('CONFIG_PARSE_ERROR');
    expect(error.details).toEqual({ field: 'compactThreshold' });
  });

  it('a default model no provider serves fails with MODEL_NOT_SUPPORTED', async () => {
    const { builder } = await testBuilder({ config: { defaultModel: 'gpt-nonexistent' } });
    expect((await buildError(builder.build())).code).toBe('MODEL_NOT_SUPPORTED');
  });

  it('a memory model no provider serves fails with MODEL_NOT_SUPPORTED', async () => {
    const { builder } = await testBuilder({ config: { memoryModel: 'typo-model' } });
    expect((await buildError(builder.build())).code).toBe('MODEL_NOT_SUPPORTED');
  });

  it('a tool with an invalid JSON Schema fails the build with INVALID_INPUT', async () => {
    const { builder } = await testBuilder({
      tools: [tool('bad', undefined, { parameters: { type: 'no-such-type' } })],
    });
    const error = await buildError(builder.build());
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain("'bad'");
  });

  it('a failing plugin initialize fails with PLUGIN_INIT_FAILED and shuts down the ones before it in reverse', async () => {
    const order: string[] = [];
    const lifecycle = (id: string, fail = false): Plugin =>
      plugin(id, {
        initialize: () => {
          order.push(`init ${id}`);
          if (fail) throw new Error('no database');
        },
        shutdown: () => void order.push(`shutdown ${id}`),
      });
    const { builder } = await testBuilder({
      plugins: [lifecycle('a'), lifecycle('b'), lifecycle('c', true), lifecycle('d')],
    });
    const error = await buildError(builder.build());
    expect(error.code).toBe('PLUGIN_INIT_FAILED');
    expect(error.message).toContain('no database');
    expect(order).toEqual(['init a', 'init b', 'init c', 'shutdown b', 'shutdown a']);
  });

  it('plugins initialize in registration order with their merged config and shut down in reverse', async () => {
    const order: string[] = [];
    const lifecycle = (id: string): Plugin =>
      plugin(id, {
        initialize: (config) => void order.push(`init ${id} ${JSON.stringify(config)}`),
        apply: () => void order.push(`apply ${id}`),
        shutdown: () => void order.push(`shutdown ${id}`),
      });
    const { agent } = await testAgent({
      plugins: [
        { plugin: lifecycle('a'), config: { level: 1 } },
        { plugin: lifecycle('b'), config: { level: 1 } },
      ],
      config: { pluginConfigs: { b: { level: 2 } } },
    });
    await agent.shutdown();
    expect(order).toEqual([
      'init a {"level":1}',
      'init b {"level":2}',
      'apply a',
      'apply b',
      'shutdown b',
      'shutdown a',
    ]);
  });
});

describe('model routing', () => {
  it('a session on a model of the second provider talks to that provider', async () => {
    const first = new ScriptedProvider({ id: 'first', models: [scriptedModel('m1')] });
    const second = new ScriptedProvider({ id: 'second', models: [scriptedModel('m2')] }).enqueue(
      textReply('from second'),
    );
    const { agent } = await testAgent({ providers: [first, second] });
    const session = await agent.newSession({ modelId: 'm2' });
    await collect(session.send('hi'));
    expect(second.requests).toHaveLength(1);
    expect(second.requests[0]?.model).toBe('m2');
    expect(first.requests).toHaveLength(0);
  });

  it('without a model ID the session uses defaultModel, else the first model', async () => {
    const provider = new ScriptedProvider({ models: [scriptedModel('m1'), scriptedModel('m2')] });
    const { agent } = await testAgent({ provider });
    const session = await agent.newSession();
    expect(session.model.id).toBe('m1');
    await session.close();
    const configured = await testAgent({
      provider: new ScriptedProvider({ models: [scriptedModel('m1'), scriptedModel('m2')] }),
      config: { defaultModel: 'm2' },
    });
    expect((await configured.agent.newSession()).model.id).toBe('m2');
  });

  it('a session on an unknown model fails with MODEL_NOT_SUPPORTED', async () => {
    const { agent } = await testAgent();
    const error = await buildError(agent.newSession({ modelId: 'nope' }));
    expect(error.code).toBe('MODEL_NOT_SUPPORTED');
    expect(agent.activeSession).toBeUndefined();
  });
});

describe('registration layers (spec §3.1)', () => {
  const describeTool = (name: string, description: string) => ({ ...tool(name), description });

  it('project overrides global overrides programmatic, and the listing says by what', async () => {
    const files = source({
      global: {
        tools: [{ tool: describeTool('search', 'global search'), path: '/home/tools/search' }],
        skills: [],
        plugins: [],
      },
      project: { tools: [{ tool: describeTool('search', 'project search') }], skills: [], plugins: [] },
    });
    const { agent, provider } = await testAgent({
      tools: [describeTool('search', 'programmatic search')],
      sources: [files],
    });
    const listing = agent.components().filter((component) => component.name === 'search');
    expect(listing).toEqual([
      expect.objectContaining({ layer: 'programmatic', overriddenBy: 'project', enabled: false }),
      expect.objectContaining({
        layer: 'global',
        overriddenBy: 'project',
        enabled: false,
        path: '/home/tools/search',
      }),
      expect.objectContaining({ layer: 'project', enabled: true }),
    ]);
    provider.enqueue(textReply('ok'));
    const session = await agent.newSession();
    await collect(session.send('hi'));
    expect(provider.requests[0]?.tools).toEqual([
      expect.objectContaining({ name: 'search', description: 'project search' }),
    ]);
  });

  it('two components with one name in one file layer fail with NAME_CONFLICT', async () => {
    const files = source({
      global: { tools: [{ tool: tool('x') }, { tool: tool('x') }], skills: [], plugins: [] },
    });
    const { builder } = await testBuilder({ sources: [files] });
    const error = await buildError(builder.build());
    expect(error.code).toBe('NAME_CONFLICT');
    expect(error.details).toMatchObject({ layer: 'global', name: 'x' });
  });

  it('a skill may depend on a tool from another layer', async () => {
    const files = source({ project: { tools: [{ tool: tool('shell') }], skills: [], plugins: [] } });
    const { agent } = await testAgent({ skills: [skill('deploy', ['shell'])], sources: [files] });
    expect(agent.components().some((component) => component.name === 'deploy')).toBe(true);
  });

  it('plugin config is config.yaml > index.md > programmatic default, each replacing the lower whole', async () => {
    const seen: Record<string, unknown>[] = [];
    const spy = (id: string): Plugin =>
      plugin(id, {
        apply: (hooks) =>
          hooks.tap('SessionStart', ({ pluginConfig }) => void seen.push({ id, ...pluginConfig })),
      });
    const files = source({
      global: {
        tools: [],
        skills: [],
        plugins: [
          { plugin: spy('from-index'), config: { a: 1 }, enabled: true },
          { plugin: spy('from-yaml'), config: { a: 1, b: 2 }, enabled: true },
        ],
      },
      config: { pluginConfigs: { 'from-yaml': { c: 3 } } },
    });
    const { agent } = await testAgent({
      plugins: [{ plugin: spy('programmatic'), config: { d: 4 } }],
      sources: [files],
    });
    await agent.newSession();
    expect(seen).toEqual([
      { id: 'programmatic', d: 4 },
      { id: 'from-index', a: 1 },
      { id: 'from-yaml', c: 3 },
    ]);
  });

  it('file plugin enablement: runtime toggle > index.md; programmatic plugins are always on', async () => {
    const fired: string[] = [];
    const spy = (id: string): Plugin =>
      plugin(id, { apply: (hooks) => hooks.tap('SessionStart', () => void fired.push(id)) });
    const files = source({
      global: {
        tools: [],
        skills: [],
        plugins: [
          { plugin: spy('off-in-file'), enabled: false },
          { plugin: spy('off-by-toggle'), enabled: true },
          { plugin: spy('on-by-toggle'), enabled: false },
        ],
      },
      pluginToggles: { 'off-by-toggle': false, 'on-by-toggle': true, always: false },
    });
    const { agent } = await testAgent({ plugins: [spy('always')], sources: [files] });
    await agent.newSession();
    expect(fired).toEqual(['always', 'on-by-toggle']);
    expect(agent.components().find((component) => component.name === 'off-in-file')?.enabled).toBe(false);
  });

  it('config.yaml values override programmatic setConfig values', async () => {
    const files = source({ config: { maxToolCallsPerTurn: 7 } });
    const { agent } = await testAgent({
      config: { maxToolCallsPerTurn: 3, toolTimeoutMs: 1234 },
      sources: [files],
    });
    expect(agent.config.maxToolCallsPerTurn).toBe(7);
    expect(agent.config.toolTimeoutMs).toBe(1234);
  });

  it('components changed on disk take effect in the next session, not the running one', async () => {
    const files = source({ project: { tools: [{ tool: tool('old') }], skills: [], plugins: [] } });
    const { agent, provider } = await testAgent({ sources: [files] });
    provider.enqueue(textReply('one'), textReply('two'), textReply('three'));
    const first = await agent.newSession();
    files.set({ project: { tools: [{ tool: tool('new') }], skills: [], plugins: [] } });
    await collect(first.send('a'));
    expect(provider.requests[0]?.tools.map((definition) => definition.name)).toEqual(['old']);
    await first.close();
    const second = await agent.newSession();
    await collect(second.send('b'));
    expect(provider.requests[1]?.tools.map((definition) => definition.name)).toEqual(['new']);
    expect(agent.components().map((component) => component.name)).toEqual(['new']);
  });

  it('load diagnostics are reported by the agent, not only logged, and logged by severity', async () => {
    const files = source({
      diagnostics: [
        { path: '/h/tools/broken', reason: 'version must be 1', kind: 'tool', layer: 'global' },
        { path: '/h/tools/odd', reason: 'unknown field `colour`', severity: 'warning', line: 4 },
      ],
    });
    const { agent, logs } = await testAgent({ sources: [files] });
    expect(agent.diagnostics).toEqual([
      expect.objectContaining({ path: '/h/tools/broken', reason: 'version must be 1' }),
      expect.objectContaining({ path: '/h/tools/odd', severity: 'warning', line: 4 }),
    ]);
    expect(logs.map((line) => line.message)).toEqual([
      'component folder skipped',
      'component loaded with a warning',
    ]);
  });
});
