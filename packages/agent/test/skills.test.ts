import {
  AgentError,
  InMemorySessionStorage,
  parseSkillInvocation,
  type Message,
  type Plugin,
  type SkillDefinition,
} from '@youyou/agent';
import { textReply, toolCallReply } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { collect, ofType, testAgent, testBuilder, tool } from './helpers.ts';

const skill = (name: string, overrides: Partial<SkillDefinition> = {}): SkillDefinition => ({
  name,
  displayName: name,
  description: `The ${name} skill.`,
  prompt: `SKILL PROMPT OF ${name}: follow these steps.`,
  requiredTools: [],
  allowImplicitInvocation: false,
  ...overrides,
});

const review = skill('review', { prompt: 'Review the diff for bugs, then list them by severity.' });

/** The text of every text block of a message, or a system message's content. */
function textOfMessage(message: Message | undefined): string {
  if (message === undefined) return '';
  if (message.role === 'system' || message.role === 'assistant' || message.role === 'tool')
    return message.content;
  return message.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('');
}

function skillMessages(messages: readonly Message[]): Message[] {
  return messages.filter((message) => message.role === 'system' && message.content.includes('<skill '));
}

describe('explicit /skill invocation (spec §3.4, §4.5)', () => {
  it('`/name rest` injects the skill prompt as a system message right before the user message, without the /name', async () => {
    const { agent, provider } = await testAgent({ skills: [review] });
    provider.enqueue(textReply('Found two bugs.'));
    const session = await agent.newSession();
    const events = await collect(session.send('/review focus on the auth module'));
    expect(events.at(-1)).toMatchObject({ type: 'TurnComplete', status: 'completed' });

    const messages = provider.requests[0]?.messages ?? [];
    expect(messages).toHaveLength(2);
    expect(messages[0]?.role).toBe('system');
    expect(textOfMessage(messages[0])).toContain(review.prompt);
    expect(messages[1]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'focus on the auth module' }],
    });
  });

  it('the skill prompt enters the context of the turn that invoked it, after earlier turns', async () => {
    const { agent, provider } = await testAgent({ skills: [review] });
    provider.enqueue(textReply('hi'), textReply('reviewed'), textReply('you are welcome'));
    const session = await agent.newSession();
    await collect(session.send('hello'));
    await collect(session.send('/review now'));
    await collect(session.send('thanks'));

    const second = provider.requests[1]?.messages ?? [];
    expect(second.map((message) => message.role)).toEqual(['user', 'assistant', 'system', 'user']);
    expect(textOfMessage(second[2])).toContain(review.prompt);
    // Injected once: the next turn keeps it in history but does not add it again.
    expect(skillMessages(provider.requests[2]?.messages ?? [])).toHaveLength(1);
  });

  it('the skill system message is persisted before the user message', async () => {
    const storage = new InMemorySessionStorage();
    const { agent, provider } = await testAgent({ skills: [review], sessionStorage: storage });
    provider.enqueue(textReply('ok'));
    const session = await agent.newSession();
    await collect(session.send('/review the parser'));
    const records = (await storage.load(session.id)) ?? [];
    const skillIndex = records.findIndex(
      (record) => record.type === 'system_message' && record.kind === 'skill',
    );
    const userIndex = records.findIndex((record) => record.type === 'user_message');
    expect(skillIndex).toBeGreaterThan(-1);
    expect(records[skillIndex]).toMatchObject({ type: 'system_message', kind: 'skill' });
    expect(records[skillIndex]?.type === 'system_message' && records[skillIndex].content).toContain(
      review.prompt,
    );
    expect(userIndex).toBe(skillIndex + 1);
    expect(records[userIndex]).toMatchObject({ content: [{ type: 'text', text: 'the parser' }] });
  });

  it('a resumed session still carries the skill prompt in its history', async () => {
    const storage = new InMemorySessionStorage();
    const { agent, provider } = await testAgent({ skills: [review], sessionStorage: storage });
    provider.enqueue(textReply('ok'), textReply('again'));
    const first = await agent.newSession();
    await collect(first.send('/review the parser'));
    await first.close();
    const resumed = await agent.resumeSession(first.id);
    await collect(resumed.send('and the lexer?'));
    expect(skillMessages(provider.requests[1]?.messages ?? [])).toHaveLength(1);
  });

  it('`/name` alone still sends a user message, and the skill name titles the session', async () => {
    const storage = new InMemorySessionStorage();
    const { agent, provider } = await testAgent({ skills: [review], sessionStorage: storage });
    provider.enqueue(textReply('reviewing'));
    const session = await agent.newSession();
    await collect(session.send('/review'));
    const messages = provider.requests[0]?.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(textOfMessage(messages[1])).toBe('/review');
    const [summary] = await storage.find(session.id);
    expect(summary?.title).toBe('review');
  });

  it('TurnStart sees the user text without the skill prompt or the /name', async () => {
    const seen: string[] = [];
    const spy: Plugin = {
      id: 'spy',
      displayName: 'Spy',
      description: 'Records user input.',
      apply: (hooks) => hooks.tap('TurnStart', ({ userInput }) => void seen.push(userInput)),
    };
    const { agent, provider } = await testAgent({ skills: [review], plugins: [spy] });
    provider.enqueue(textReply('ok'));
    await collect((await agent.newSession()).send('/review the parser'));
    expect(seen).toEqual(['the parser']);
  });

  it('an unknown /name fails with SKILL_NOT_FOUND naming the available skills, and nothing is sent', async () => {
    const { agent, provider } = await testAgent({ skills: [review] });
    const session = await agent.newSession();
    const events = await collect(session.send('/reveiw the parser'));
    const [error, last] = events.slice(-2);
    expect(error).toMatchObject({ type: 'Error', fatal: true, error: { code: 'SKILL_NOT_FOUND' } });
    expect(last).toMatchObject({
      type: 'TurnComplete',
      status: 'failed',
      error: { code: 'SKILL_NOT_FOUND' },
    });
    expect(ofType(events, 'Error')[0]?.error.message).toContain('/review');
    expect(provider.requests).toHaveLength(0);
    expect(session.messages).toHaveLength(0);
  });

  it('an unknown skill block fails with SKILL_NOT_FOUND and nothing is sent', async () => {
    const { agent, provider } = await testAgent();
    const events = await collect((await agent.newSession()).send([{ type: 'skill', name: 'ghost' }]));
    expect(events.at(-1)).toMatchObject({
      type: 'TurnComplete',
      status: 'failed',
      error: { code: 'SKILL_NOT_FOUND' },
    });
    expect(provider.requests).toHaveLength(0);
  });

  it('`/usr/bin` in the middle of a sentence is not a skill', async () => {
    const { agent, provider } = await testAgent({ skills: [review] });
    provider.enqueue(textReply('It is there.'));
    const events = await collect((await agent.newSession()).send('is python in /usr/bin or /review?'));
    expect(events.at(-1)).toMatchObject({ status: 'completed' });
    expect(provider.requests[0]?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'is python in /usr/bin or /review?' }] },
    ]);
  });

  it('a path at the start of the message is not a skill', async () => {
    const { agent, provider } = await testAgent();
    provider.enqueue(textReply('A shebang.'));
    const events = await collect((await agent.newSession()).send('/usr/bin/env python3 -- what does it do?'));
    expect(events.at(-1)).toMatchObject({ status: 'completed' });
    expect(textOfMessage(provider.requests[0]?.messages[0])).toBe('/usr/bin/env python3 -- what does it do?');
  });

  it('`//text` is sent as `/text` and runs no skill', async () => {
    const { agent, provider } = await testAgent({ skills: [review] });
    provider.enqueue(textReply('ok'));
    const events = await collect((await agent.newSession()).send('//review is a command I like'));
    expect(events.at(-1)).toMatchObject({ status: 'completed' });
    expect(provider.requests[0]?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: '/review is a command I like' }] },
    ]);
  });

  it('a skill input block injects the prompt with its arguments, and the text blocks stay the user message', async () => {
    const { agent, provider } = await testAgent({ skills: [review] });
    provider.enqueue(textReply('ok'));
    await collect(
      (await agent.newSession()).send([
        { type: 'skill', name: 'review', arguments: 'PR #42 only' },
        { type: 'text', text: 'be strict' },
      ]),
    );
    const messages = provider.requests[0]?.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(textOfMessage(messages[0])).toContain(review.prompt);
    expect(textOfMessage(messages[0])).toContain('PR #42 only');
    expect(messages[1]).toEqual({ role: 'user', content: [{ type: 'text', text: 'be strict' }] });
  });

  it('parseSkillInvocation reads only a /name at the start', () => {
    expect(parseSkillInvocation('/commit fix the typo')).toEqual({ name: 'commit', rest: 'fix the typo' });
    expect(parseSkillInvocation('  /commit')).toEqual({ name: 'commit', rest: '' });
    expect(parseSkillInvocation('please /commit')).toBeUndefined();
    expect(parseSkillInvocation('//commit')).toBeUndefined();
    expect(parseSkillInvocation('/usr/bin')).toBeUndefined();
    expect(parseSkillInvocation('/')).toBeUndefined();
  });
});

describe('implicit skills in the system prompt (spec §3.4)', () => {
  it('skills with allowImplicitInvocation are listed in the system prompt and others are not', async () => {
    const commit = skill('commit', { allowImplicitInvocation: true, description: 'Write a commit message.' });
    const secret = skill('secret-sauce', { description: 'Hidden helper.' });
    const { agent, provider } = await testAgent({ skills: [commit, secret] });
    provider.enqueue(textReply('ok'));
    const session = await agent.newSession();
    await collect(session.send('hi'));
    const prompt = provider.requests[0]?.systemPrompt ?? '';
    expect(prompt).toContain('/commit: Write a commit message.');
    expect(prompt).not.toContain('secret-sauce');
    expect(prompt).not.toContain('Hidden helper.');
    // The list names the skill; its prompt stays out until the user invokes it.
    expect(prompt).not.toContain(commit.prompt);
  });

  it('with no implicit skill there is no skill section', async () => {
    const { agent } = await testAgent({ skills: [skill('quiet')] });
    const session = await agent.newSession();
    expect(session.systemPrompt().sections.map((section) => section.layer)).not.toContain('skills');
  });

  it('a skill never runs because the model mentions it', async () => {
    const commit = skill('commit', { allowImplicitInvocation: true });
    const { agent, provider } = await testAgent({ skills: [commit] });
    provider.enqueue(
      textReply('You can use /commit to do that.'),
      toolCallReply([{ toolName: 'commit', callId: 'c1' }], '/commit'),
      textReply('Run /commit yourself, please.'),
    );
    const session = await agent.newSession();
    await collect(session.send('how do I commit?'));
    const events = await collect(session.send('do it'));
    // The model's attempt to call the skill like a tool is refused as an unknown tool.
    expect(ofType(events, 'ToolCallEnd')[0]).toMatchObject({ toolName: 'commit', success: false });
    expect(ofType(events, 'ToolCallEnd')[0]?.output).toContain('TOOL_NOT_FOUND');
    for (const request of provider.requests) {
      expect(request.messages.some((message) => textOfMessage(message).includes(commit.prompt))).toBe(false);
    }
  });
});

describe('skill dependencies (spec §4.5, §6.1)', () => {
  it('a skill whose required tool is missing fails the build with SKILL_DEPENDENCY_NOT_MET', async () => {
    const { builder } = await testBuilder({
      tools: [tool('read_file')],
      skills: [skill('deploy', { requiredTools: ['read_file', 'run_shell'] })],
    });
    const error = await builder.build().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({
      code: 'SKILL_DEPENDENCY_NOT_MET',
      details: { skill: 'deploy', missingTools: ['run_shell'] },
    });
    expect((error as AgentError).message).toContain('run_shell');
  });

  it('a skill whose required tools are registered builds and runs', async () => {
    const { agent, provider } = await testAgent({
      tools: [tool('run_shell')],
      skills: [skill('deploy', { requiredTools: ['run_shell'] })],
    });
    provider.enqueue(textReply('deploying'));
    const events = await collect((await agent.newSession()).send('/deploy staging'));
    expect(events.at(-1)).toMatchObject({ status: 'completed' });
  });
});
