import os from 'node:os';
import {
  continueWith,
  InMemoryMemoryStorage,
  InMemorySessionStorage,
  PROMPT_LAYERS,
  type ComponentSource,
  type LoadedComponents,
  type Plugin,
  type PromptLayer,
  type SkillDefinition,
} from '@youyou/agent';
import { ScriptedProvider, scriptedModel, textReply } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { collect, testAgent, tool, type TestAgentOptions } from './helpers.ts';

const emptyLayer = { tools: [], skills: [], plugins: [] };

/** A component source carrying only AGENT.md / SOUL.md texts. */
function instructions(
  texts: Pick<LoadedComponents, 'globalInstructions' | 'projectInstructions' | 'soul'>,
): ComponentSource {
  return { load: async () => ({ global: emptyLayer, project: emptyLayer, diagnostics: [], ...texts }) };
}

const implicitSkill: SkillDefinition = {
  name: 'commit',
  displayName: 'Commit',
  description: 'SKILL-LIST: write a commit message.',
  prompt: 'Write it.',
  requiredTools: [],
  allowImplicitInvocation: true,
};

/** A plugin that adds `sections` on TurnStart while `active()` says so. */
function dynamicPlugin(sections: readonly string[], active: () => boolean = () => true): Plugin {
  return {
    id: 'dynamic',
    displayName: 'Dynamic context',
    description: 'PLUGIN-INFO: adds the open editor tabs.',
    apply: (hooks) =>
      hooks.tap('TurnStart', ({ dynamicSections }) =>
        active()
          ? continueWith<'TurnStart'>({ dynamicSections: [...dynamicSections, ...sections] })
          : undefined,
      ),
  };
}

const MARKERS: Record<PromptLayer, string> = {
  base_instructions: 'BASE: you are YouYou.',
  global_instructions: 'GLOBAL-AGENT-MD: prefer short answers.',
  project_instructions: 'PROJECT-AGENT-MD: this repo uses pnpm.',
  personality: 'SOUL-MD: cheerful and direct.',
  tools: 'TOOL-DEF: reads a file.',
  skills: 'SKILL-LIST: write a commit message.',
  plugins: 'PLUGIN-INFO: adds the open editor tabs.',
  memories: 'MEMORY: the user likes tabs.',
  environment: 'Working directory:',
  dynamic: 'DYNAMIC: editor has main.ts open.',
};

const textOnlyModel = scriptedModel('scripted-model', {
  capabilities: { toolUse: false, vision: false, streaming: true },
});

/** An agent with every layer present except those in `without`. */
async function layeredAgent(without: readonly PromptLayer[] = [], extra: TestAgentOptions = {}) {
  const has = (layer: PromptLayer): boolean => !without.includes(layer);
  const memoryStorage = new InMemoryMemoryStorage();
  const agent = await testAgent({
    // A model without native tool use: its tools are written into the prompt (the tools layer).
    provider: new ScriptedProvider({ models: [textOnlyModel] }),
    config: has('base_instructions') ? { baseInstructions: MARKERS.base_instructions } : {},
    sources: [
      instructions({
        ...(has('global_instructions') ? { globalInstructions: MARKERS.global_instructions } : {}),
        ...(has('project_instructions') ? { projectInstructions: MARKERS.project_instructions } : {}),
        ...(has('personality') ? { soul: MARKERS.personality } : {}),
      }),
    ],
    tools: has('tools') ? [{ ...tool('read_file'), description: MARKERS.tools }] : [],
    skills: has('skills') ? [implicitSkill] : [],
    plugins: has('plugins') || has('dynamic') ? [dynamicPlugin(has('dynamic') ? [MARKERS.dynamic] : [])] : [],
    memoryStorage,
    ...extra,
  });
  if (has('memories')) {
    await memoryStorage.upsert({
      id: 'm1',
      namespace: agent.agent.cwd,
      content: MARKERS.memories,
      source: 's0',
      tags: [],
    });
  }
  return agent;
}

describe('system prompt layers (spec §4.3)', () => {
  it('all ten layers appear in spec order, in the request and in session.systemPrompt()', async () => {
    const { agent, provider } = await layeredAgent();
    provider.enqueue(textReply('ok'));
    const session = await agent.newSession();
    await collect(session.send('hi'));

    const prompt = session.systemPrompt();
    expect(prompt.sections.map((section) => section.layer)).toEqual([...PROMPT_LAYERS]);
    expect(PROMPT_LAYERS).toEqual([
      'base_instructions',
      'global_instructions',
      'project_instructions',
      'personality',
      'tools',
      'skills',
      'plugins',
      'memories',
      'environment',
      'dynamic',
    ]);
    const sent = provider.requests[0]?.systemPrompt ?? '';
    expect(sent).toBe(prompt.text);
    const positions = PROMPT_LAYERS.map((layer) => sent.indexOf(MARKERS[layer]));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const section of prompt.sections) expect(section.content).toContain(MARKERS[section.layer]);
  });

  it.each([
    ...PROMPT_LAYERS.filter((layer) => !['environment', 'plugins'].includes(layer)).map((layer) => [layer]),
    // Dynamic sections come from a plugin, so without plugins there are none either.
    ['plugins', 'dynamic'],
  ] as PromptLayer[][])(
    'a missing %s layer is skipped and the others keep their order',
    async (...missing) => {
      const { agent, provider } = await layeredAgent(missing);
      provider.enqueue(textReply('ok'));
      const session = await agent.newSession();
      await collect(session.send('hi'));
      expect(session.systemPrompt().sections.map((section) => section.layer)).toEqual(
        PROMPT_LAYERS.filter((layer) => !missing.includes(layer)),
      );
      for (const layer of missing) expect(provider.requests[0]?.systemPrompt).not.toContain(MARKERS[layer]);
    },
  );

  it('with nothing registered only the environment layer remains', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue(textReply('ok'));
    const session = await agent.newSession();
    await collect(session.send('hi'));
    expect(session.systemPrompt().sections.map((section) => section.layer)).toEqual(['environment']);
  });

  it('empty or whitespace-only AGENT.md and SOUL.md are skipped', async () => {
    const { agent } = await testAgent({
      sources: [instructions({ globalInstructions: '', projectInstructions: '  \n\n', soul: '\t' })],
    });
    const session = await agent.newSession();
    expect(session.systemPrompt().sections.map((section) => section.layer)).toEqual(['environment']);
  });

  it('the environment layer names the OS, the working directory and the date', async () => {
    const { agent } = await testAgent();
    const session = await agent.newSession();
    const environment = session.systemPrompt().sections.find((section) => section.layer === 'environment');
    expect(environment?.content).toContain(agent.cwd);
    expect(environment?.content).toContain(os.type());
    expect(environment?.content).toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('session.systemPrompt() is inspectable before the first turn', async () => {
    const { agent } = await layeredAgent(['dynamic']);
    const session = await agent.newSession();
    expect(session.systemPrompt().sections.map((section) => section.layer)).toEqual(
      PROMPT_LAYERS.filter((layer) => layer !== 'dynamic'),
    );
    expect(session.systemPrompt().text).toContain(MARKERS.global_instructions);
  });

  it('newSession({ systemPrompt }) replaces the base instructions and keeps every other layer', async () => {
    const { agent, provider } = await layeredAgent(['dynamic']);
    provider.enqueue(textReply('ok'));
    const session = await agent.newSession({ systemPrompt: 'CUSTOM: you review code.' });
    await collect(session.send('hi'));
    const sent = provider.requests[0]?.systemPrompt ?? '';
    expect(sent).toContain('CUSTOM: you review code.');
    expect(sent).not.toContain(MARKERS.base_instructions);
    expect(sent.indexOf('CUSTOM')).toBeLessThan(sent.indexOf(MARKERS.global_instructions));
    expect(session.systemPrompt().sections[0]).toMatchObject({
      layer: 'base_instructions',
      content: 'CUSTOM: you review code.',
    });
    expect(session.systemPrompt().sections.map((section) => section.layer)).toEqual(
      PROMPT_LAYERS.filter((layer) => layer !== 'dynamic'),
    );
  });

  it('a resumed session keeps the system prompt it was created with', async () => {
    const storage = new InMemorySessionStorage();
    const { agent, provider } = await testAgent({
      sessionStorage: storage,
      config: { baseInstructions: 'DEFAULT BASE' },
    });
    provider.enqueue(textReply('one'), textReply('two'));
    const first = await agent.newSession({ systemPrompt: 'SESSION BASE' });
    await collect(first.send('hi'));
    await first.close();
    const resumed = await agent.resumeSession(first.id);
    await collect(resumed.send('again'));
    expect(provider.requests[1]?.systemPrompt).toContain('SESSION BASE');
    expect(provider.requests[1]?.systemPrompt).not.toContain('DEFAULT BASE');
  });

  it('tool definitions go once, in request.tools, for a model with native tool use', async () => {
    const parameters = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    const { agent, provider } = await testAgent({ tools: [tool('read_file', undefined, { parameters })] });
    provider.enqueue(textReply('ok'));
    await collect((await agent.newSession()).send('hi'));
    const request = provider.requests[0];
    expect(request?.tools).toEqual([{ name: 'read_file', description: 'The read_file tool.', parameters }]);
    expect(request?.systemPrompt).not.toContain('The read_file tool.');
    expect(request?.systemPrompt).not.toContain(JSON.stringify(parameters));
  });

  it('tool definitions are written into the prompt for a model without native tool use', async () => {
    const parameters = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    const { agent, provider } = await testAgent({
      provider: new ScriptedProvider({ models: [textOnlyModel] }),
      tools: [tool('read_file', undefined, { parameters })],
    });
    provider.enqueue(textReply('ok'));
    await collect((await agent.newSession()).send('hi'));
    const request = provider.requests[0];
    expect(request?.systemPrompt).toContain('read_file');
    expect(request?.systemPrompt).toContain('The read_file tool.');
    expect(request?.systemPrompt).toContain(JSON.stringify(parameters));
  });

  it('the memories layer lists the memories loaded at session start', async () => {
    const { agent, provider } = await layeredAgent();
    provider.enqueue(textReply('ok'));
    const session = await agent.newSession();
    await collect(session.send('hi'));
    const memories = session.systemPrompt().sections.find((section) => section.layer === 'memories');
    expect(memories?.content).toBe(`- [m1] ${MARKERS.memories}`);
  });

  it('dynamic sections from TurnStart apply only to the turn that added them', async () => {
    let turns = 0;
    const { agent, provider } = await testAgent({
      plugins: [dynamicPlugin(['ONLY-FIRST-TURN'], () => ++turns === 1)],
    });
    provider.enqueue(textReply('one'), textReply('two'));
    const session = await agent.newSession();
    await collect(session.send('first'));
    expect(session.systemPrompt().sections.at(-1)).toMatchObject({
      layer: 'dynamic',
      content: 'ONLY-FIRST-TURN',
    });
    await collect(session.send('second'));
    expect(provider.requests[0]?.systemPrompt).toContain('ONLY-FIRST-TURN');
    expect(provider.requests[1]?.systemPrompt).not.toContain('ONLY-FIRST-TURN');
    expect(session.systemPrompt().sections.map((section) => section.layer)).not.toContain('dynamic');
  });

  it('dynamic sections from several plugins join in plugin order, each seeing the earlier ones', async () => {
    const seenBySecond: (readonly string[])[] = [];
    const second: Plugin = {
      id: 'second',
      displayName: 'Second',
      description: 'Second plugin.',
      apply: (hooks) =>
        hooks.tap('TurnStart', ({ dynamicSections }) => {
          seenBySecond.push(dynamicSections);
          return continueWith<'TurnStart'>({ dynamicSections: [...dynamicSections, 'SECOND-SECTION'] });
        }),
    };
    const { agent, provider } = await testAgent({ plugins: [dynamicPlugin(['FIRST-SECTION']), second] });
    provider.enqueue(textReply('ok'));
    await collect((await agent.newSession()).send('hi'));
    expect(seenBySecond).toEqual([['FIRST-SECTION']]);
    const sent = provider.requests[0]?.systemPrompt ?? '';
    expect(sent.indexOf('FIRST-SECTION')).toBeLessThan(sent.indexOf('SECOND-SECTION'));
    expect(sent.indexOf('SECOND-SECTION')).toBeGreaterThan(sent.indexOf('Working directory:'));
  });
});
