import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentProfile, CommandDescriptor, Macro, ProfileFile } from '@youyou/contracts';
import { lastUserText, type FakeReply, type RecordedRequest } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TITLE_SYSTEM_PROMPT } from '../src/models/index.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

interface ChatBody {
  model?: string;
  temperature?: number;
  max_tokens?: number;
  messages?: { role: string; content: unknown }[];
  tools?: { function: { name: string } }[];
}

const bodyOf = (request: RecordedRequest): ChatBody => request.body as ChatBody;
const systemOf = (request: RecordedRequest): string =>
  (bodyOf(request).messages ?? [])
    .filter((message) => message.role === 'system')
    .map((message) =>
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    )
    .join('\n');
const toolsOf = (request: RecordedRequest): string[] =>
  (bodyOf(request).tools ?? []).map((tool) => tool.function.name);

async function writeTool(home: string, name: string, script: string): Promise<void> {
  const folder = join(home, 'tools', name);
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, 'index.md'),
    `---\nversion: 1\nname: ${name}\nparameters:\n  - name: query\n    type: string\n    required: true\nexecution:\n  command: ./run.sh\n---\nLooks a query up (${name}).\n`,
  );
  await writeFile(join(folder, 'run.sh'), `#!/bin/sh\n${script}\n`);
  await chmod(join(folder, 'run.sh'), 0o755);
}

/** What the fake model answers, by the last user message (and tool results). */
function reply(request: RecordedRequest): FakeReply {
  const body = bodyOf(request);
  if (systemOf(request).includes(TITLE_SYSTEM_PROMPT)) {
    const text = lastUserText(request.body);
    return {
      type: 'stream',
      steps: [
        { type: 'text', text: /[\u4e00-\u9fff]/.test(text) ? '“解析器问题”' : 'Title: Parser trouble.' },
      ],
    };
  }
  const last = body.messages?.at(-1);
  const text = lastUserText(request.body);
  if (last?.role === 'tool') {
    if (text.includes('loop tools')) {
      return {
        type: 'stream',
        steps: [{ type: 'tool_call', name: 'lookup', arguments: { query: 'again' } }],
      };
    }
    return { type: 'stream', steps: [{ type: 'text', text: 'Done with the tool.' }] };
  }
  if (text.includes('use the gate')) {
    return { type: 'stream', steps: [{ type: 'tool_call', name: 'gate', arguments: { query: 'wait' } }] };
  }
  if (text.includes('loop tools')) {
    return { type: 'stream', steps: [{ type: 'tool_call', name: 'lookup', arguments: { query: 'first' } }] };
  }
  if (text.includes('many tokens')) {
    return {
      type: 'stream',
      steps: [
        { type: 'text', text: 'A long answer.' },
        { type: 'usage', inputTokens: 900, outputTokens: 300 },
      ],
    };
  }
  if (text.includes('slowly')) {
    return {
      type: 'stream',
      steps: [
        { type: 'text', text: 'Start' },
        { type: 'delay', ms: 20_000 },
        { type: 'text', text: 'end' },
      ],
    };
  }
  return { type: 'stream', steps: [{ type: 'text', text: `Echo: ${text}` }] };
}

describe.each(DATABASE_KINDS)('profiles, run parameters and budgets (%s)', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let gate: string;

  const createConversation = async (extra: Record<string, unknown> = {}) =>
    await server.call<{ id: string; profile_id: string | null }>('POST', '/api/conversations', extra);
  const send = async (conversationId: string, text: string) =>
    (
      await server.call<{ run: { id: string } }>('POST', `/api/conversations/${conversationId}/messages`, {
        text,
      })
    ).run.id;
  const run = (runId: string) =>
    server.call<{
      status: string;
      profile_id: string | null;
      error: { code: string; message: string } | null;
    }>('GET', `/api/runs/${runId}`);
  const newProfile = (changes: Partial<AgentProfile> = {}) =>
    server.call<AgentProfile>('POST', '/api/profiles', {
      name: `Profile ${Math.random().toString(36).slice(2, 8)}`,
      systemPrompt: '',
      model: { router: 'chat' },
      parameters: {},
      tools: { allow: ['*'], deny: [], confirm: [] },
      context: { policy: 'default' },
      hitl: { askOnAmbiguity: true, timeoutSec: null },
      budget: {},
      ...changes,
    });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database, fake: { fallback: reply } });
    gate = join(server.directories.root, 'gate');
    await writeTool(server.directories.home, 'lookup', 'read request\necho "found: $request"');
    await writeTool(server.directories.home, 'secret_tool', 'echo secret');
    await writeTool(
      server.directories.home,
      'gate',
      `read request\nwhile [ ! -f "${gate}" ]; do sleep 0.05; done\necho opened`,
    );
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('the built-in profile is listed first and can be duplicated but neither changed nor deleted', async () => {
    const { profiles } = await server.call<{ profiles: AgentProfile[] }>('GET', '/api/profiles');
    expect(profiles[0]).toMatchObject({ id: 'default', builtin: true, tools: { allow: ['*'] } });
    const changed = await server.request<{ error: { code: string } }>('PATCH', '/api/profiles/default', {
      body: { name: 'Mine now' },
    });
    expect(changed.status).toBe(409);
    const deleted = await server.request<{ error: { code: string } }>('DELETE', '/api/profiles/default');
    expect(deleted.status).toBe(409);
    expect(deleted.body.error.code).toBe('CONFLICT');
    const copy = await server.call<AgentProfile>('POST', '/api/profiles/default/duplicate', {});
    expect(copy).toMatchObject({ builtin: false, name: 'General assistant (copy)' });
    const edited = await server.call<AgentProfile>('PATCH', `/api/profiles/${copy.id}`, {
      systemPrompt: 'Answer in haiku.',
    });
    expect(edited.systemPrompt).toBe('Answer in haiku.');
    await server.call('DELETE', `/api/profiles/${copy.id}`);
    expect((await server.request('GET', `/api/profiles/${copy.id}`)).status).toBe(404);
  });

  it('a profile file exports and imports back; a bad file is a structured error and imports nothing', async () => {
    const reviewer = await newProfile({ name: 'Reviewer', systemPrompt: 'Review carefully.' });
    const file = await server.call<ProfileFile>('GET', `/api/profiles/export?id=${reviewer.id}`);
    expect(file).toMatchObject({ format: 'youyou.profile', version: 1, profiles: [{ name: 'Reviewer' }] });
    expect(JSON.stringify(file)).not.toContain(reviewer.id);
    const count = async () =>
      (await server.call<{ profiles: AgentProfile[] }>('GET', '/api/profiles')).profiles.length;
    const before = await count();

    const bad = async (body: string) => {
      const response = await server.request<{
        error: { code: string; details: { reason: string; problems?: { path: string }[] } };
      }>('POST', '/api/profiles/import', { body, headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('INVALID_INPUT');
      return response.body.error.details;
    };
    expect((await bad('{ not json')).reason).toBe('not_json');
    expect((await bad(JSON.stringify({ format: 'something.else', profiles: [] }))).reason).toBe(
      'invalid_profile_file',
    );
    const oneBad = await bad(
      JSON.stringify({
        ...file,
        profiles: [file.profiles[0], { ...file.profiles[0], name: 'Broken', parameters: { temperature: 9 } }],
      }),
    );
    expect(oneBad.problems?.[0]?.path).toBe('/profiles/1/parameters/temperature');
    expect(await count()).toBe(before);

    const imported = await server.call<{ profiles: AgentProfile[] }>(
      'POST',
      '/api/profiles/import',
      JSON.stringify(file),
    );
    expect(imported.profiles[0]).toMatchObject({
      name: 'Reviewer (imported)',
      systemPrompt: 'Review carefully.',
    });
    expect(await count()).toBe(before + 1);
  });

  it('a profile’s system prompt, temperature and tool deny list change what the model receives, for its conversation only', async () => {
    const strict = await newProfile({
      name: 'Strict',
      systemPrompt: 'You are the STRICT profile.',
      parameters: { temperature: 0.15 },
      tools: { allow: ['*'], deny: ['secret_*'], confirm: [] },
    });
    const bound = await createConversation({ profile_id: strict.id });
    expect(bound.profile_id).toBe(strict.id);
    const plain = await createConversation();
    const first = server.fake.chatRequests.length;
    const boundRun = await send(bound.id, 'hello bound');
    await server.settled(bound.id, boundRun);
    const plainRun = await send(plain.id, 'hello plain');
    await server.settled(plain.id, plainRun);
    const [boundRequest, plainRequest] = server.fake.chatRequests.slice(first);
    if (boundRequest === undefined || plainRequest === undefined) throw new Error('missing requests');
    expect(systemOf(boundRequest)).toContain('You are the STRICT profile.');
    expect(bodyOf(boundRequest).temperature).toBe(0.15);
    expect(toolsOf(boundRequest)).toContain('lookup');
    expect(toolsOf(boundRequest)).not.toContain('secret_tool');
    expect(systemOf(plainRequest)).not.toContain('STRICT');
    expect(bodyOf(plainRequest).temperature).toBeUndefined();
    expect(toolsOf(plainRequest)).toContain('secret_tool');
    expect((await run(boundRun)).profile_id).toBe(strict.id);
    expect((await run(plainRun)).profile_id).toBe('default');
  });

  it('run parameters resolve system → user → profile → conversation, one example of each layer', async () => {
    const warm = await newProfile({ name: 'Warm', parameters: { temperature: 0.2, max_tokens: 700 } });
    const conversation = await createConversation({ profile_id: warm.id });
    await server.call('PUT', '/api/settings/values', {
      layer: 'user',
      values: { 'run.temperature': 0.5, 'run.max_tokens': 900, 'run.reasoning_effort': 'low' },
    });
    await server.call('PUT', '/api/settings/values', {
      layer: 'conversation',
      scope_id: conversation.id,
      values: { 'run.temperature': 0.9 },
    });
    const plan = await server.call<{ parameters: Record<string, unknown>; sources: Record<string, string> }>(
      'GET',
      `/api/conversations/${conversation.id}/run-plan`,
    );
    expect(plan.parameters).toMatchObject({
      temperature: 0.9,
      max_tokens: 700,
      reasoning_effort: 'low',
      retry_budget: null,
    });
    expect(plan.sources).toMatchObject({
      'run.temperature': 'conversation',
      'run.max_tokens': 'profile',
      'run.reasoning_effort': 'user',
      'run.retry_budget': 'system',
    });
    const first = server.fake.chatRequests.length;
    const runId = await send(conversation.id, 'layers please');
    await server.settled(conversation.id, runId);
    const request = server.fake.chatRequests[first];
    if (request === undefined) throw new Error('no request');
    expect(bodyOf(request)).toMatchObject({ temperature: 0.9, max_tokens: 700 });
    await server.call('DELETE', '/api/settings/values/run.temperature?layer=user');
    await server.call('DELETE', '/api/settings/values/run.max_tokens?layer=user');
    await server.call('DELETE', '/api/settings/values/run.reasoning_effort?layer=user');
  });

  it('a new-run change leaves the running run as it started and applies to the next run', async () => {
    const profile = await newProfile({ name: 'Changing', parameters: { temperature: 0.3 } });
    const conversation = await createConversation({ profile_id: profile.id });
    const first = server.fake.chatRequests.length;
    const runId = await send(conversation.id, 'use the gate');
    // Wait until the run is inside its tool call, then change the profile and a conversation setting.
    for (let attempt = 0; server.fake.chatRequests.length === first && attempt < 400; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await server.call('PATCH', `/api/profiles/${profile.id}`, {
      parameters: { temperature: 1.1 },
      systemPrompt: 'Changed while running.',
    });
    await server.call('PUT', '/api/settings/values', {
      layer: 'conversation',
      scope_id: conversation.id,
      values: { 'run.max_tokens': 123 },
    });
    await writeFile(gate, 'open');
    await server.settled(conversation.id, runId);
    const during = server.fake.chatRequests.slice(first);
    expect(during).toHaveLength(2);
    for (const request of during) {
      expect(bodyOf(request).temperature).toBe(0.3);
      expect(bodyOf(request).max_tokens).toBeUndefined();
      expect(systemOf(request)).not.toContain('Changed while running.');
    }
    const next = server.fake.chatRequests.length;
    const nextRun = await send(conversation.id, 'and now?');
    await server.settled(conversation.id, nextRun);
    const after = server.fake.chatRequests[next];
    if (after === undefined) throw new Error('no request');
    expect(bodyOf(after)).toMatchObject({ temperature: 1.1, max_tokens: 123 });
    expect(systemOf(after)).toContain('Changed while running.');
  });

  it('budgets end a run with their stable codes: tool calls, tokens, time', async () => {
    const budgeted = await newProfile({ name: 'Budgeted', budget: { max_tool_calls: 1 } });
    const conversation = await createConversation({ profile_id: budgeted.id });
    const tools = await send(conversation.id, 'loop tools');
    await server.settled(conversation.id, tools);
    const toolRun = await run(tools);
    expect(toolRun.status).toBe('failed');
    expect(toolRun.error?.code).toBe('BUDGET_TOOL_CALLS_EXCEEDED');

    const frugal = await newProfile({ name: 'Frugal', budget: { max_tokens: 1000 } });
    const counted = await createConversation({ profile_id: frugal.id });
    const tokens = await send(counted.id, 'many tokens');
    const tokenView = await server.settled(counted.id, tokens);
    expect((await run(tokens)).error?.code).toBe('BUDGET_TOKENS_EXCEEDED');
    const answer = tokenView.messages.at(-1);
    expect(answer?.parts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'text', text: 'A long answer.' }),
        expect.objectContaining({
          type: 'error',
          error: expect.objectContaining({ code: 'BUDGET_TOKENS_EXCEEDED' }),
        }),
      ]),
    );

    const hurried = await newProfile({ name: 'Hurried', budget: { max_duration_ms: 1500 } });
    const quick = await createConversation({ profile_id: hurried.id });
    const slow = await send(quick.id, 'answer slowly');
    await server.settled(quick.id, slow);
    expect((await run(slow)).error).toMatchObject({ code: 'BUDGET_TIME_EXCEEDED', details: { limit: 1500 } });
  });

  it('titles come from the lightweight model, short and in the conversation’s language; without one, the first line', async () => {
    await server.call('POST', '/api/providers', {
      name: 'light',
      kind: 'openai-compatible',
      base_url: server.fake.url,
      models: [{ id: 'light-model' }],
    });
    const untitled = await createConversation();
    const firstLine = await send(
      untitled.id,
      'Why does my parser fail on nested brackets?\nMore detail here.',
    );
    await server.settled(untitled.id, firstLine);
    expect(
      (await server.call<{ conversation: { title: string } }>('GET', `/api/conversations/${untitled.id}`))
        .conversation.title,
    ).toBe('Why does my parser fail on nested brackets?');

    await server.call('PUT', '/api/settings/values', {
      layer: 'user',
      values: { 'models.lightweight': 'light/light-model' },
    });
    const titled = async (text: string): Promise<string> => {
      const conversation = await createConversation();
      const runId = await send(conversation.id, text);
      await server.settled(conversation.id, runId);
      for (let attempt = 0; attempt < 200; attempt++) {
        const view = await server.call<{ conversation: { title: string } }>(
          'GET',
          `/api/conversations/${conversation.id}`,
        );
        if (!view.conversation.title.startsWith(text.slice(0, 10))) return view.conversation.title;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('no model title');
    };
    expect(await titled('Why does my parser fail on nested brackets?')).toBe('Parser trouble');
    expect(await titled('为什么我的解析器在嵌套括号上失败？')).toBe('解析器问题');
    const lightRequests = server.fake.chatRequests.filter(
      (request) => bodyOf(request).model === 'light-model',
    );
    expect(lightRequests.length).toBeGreaterThanOrEqual(2);
    await server.call('DELETE', '/api/settings/values/models.lightweight?layer=user');
  });

  it('a conversation exports as Markdown and as JSON', async () => {
    const conversation = await createConversation({ title: 'Export me' });
    const runId = await send(conversation.id, 'export this please');
    await server.settled(conversation.id, runId);
    const markdown = await fetch(
      `${server.url}/api/conversations/${conversation.id}/export?format=markdown`,
      {
        headers: { authorization: `Bearer ${server.token}` },
      },
    );
    expect(markdown.headers.get('content-type')).toContain('text/markdown');
    expect(markdown.headers.get('content-disposition')).toContain('Export-me.md');
    const text = await markdown.text();
    expect(text).toContain('# Export me');
    expect(text).toContain('## You\n\nexport this please');
    expect(text).toContain('Echo: export this please');
    const exported = await server.call<{ format: string; messages: { role: string }[] }>(
      'GET',
      `/api/conversations/${conversation.id}/export?format=json`,
    );
    expect(exported.format).toBe('youyou.conversation');
    expect(exported.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('commands list built-ins, skills and macros with their sources; macros and snippets round-trip a library file', async () => {
    const skill = join(server.directories.home, 'skills', 'summarise');
    await mkdir(skill, { recursive: true });
    await writeFile(
      join(skill, 'index.md'),
      '---\nversion: 1\nname: summarise\ndescription: Summarise a text\n---\nSummarise it.\n',
    );
    const macro = await server.call<Macro>('POST', '/api/macros', {
      name: 'translate',
      description: 'Translate a text',
      template: 'Translate {{text}} into {{language}}.',
    });
    expect(macro.variables).toEqual(['text', 'language']);
    const taken = await server.request('POST', '/api/macros', {
      body: { name: 'help', description: '', template: 'x' },
    });
    expect(taken.status).toBe(409);
    const { commands } = await server.call<{ commands: CommandDescriptor[] }>('GET', '/api/commands');
    const byName = new Map(commands.map((command) => [command.name, command]));
    // `/remember` writes a memory (spec §4.13; the context-and-memory tests cover it).
    for (const name of ['new', 'model', 'profile', 'export', 'remember', 'help'])
      expect(byName.get(name)?.source).toBe('builtin');
    expect(byName.get('summarise')).toMatchObject({ source: 'skill', action: 'skill' });
    expect(byName.get('translate')).toMatchObject({
      source: 'macro',
      parameters: [expect.objectContaining({ name: 'text' }), expect.objectContaining({ name: 'language' })],
    });

    await server.call('POST', '/api/snippets', {
      title: 'Polite close',
      body: 'Thanks a lot!',
      tags: ['email'],
    });
    const file = await server.call<Record<string, unknown>>('GET', '/api/library/export');
    expect(file).toMatchObject({
      format: 'youyou.library',
      snippets: [{ title: 'Polite close' }],
      macros: [{ name: 'translate' }],
    });
    const bad = await server.request<{ error: { code: string } }>('POST', '/api/library/import', {
      body: JSON.stringify({ format: 'youyou.library', version: 1, snippets: [{ title: '', body: '' }] }),
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect((await server.call<{ snippets: unknown[] }>('GET', '/api/snippets')).snippets).toHaveLength(1);
    await server.call('POST', '/api/library/import', JSON.stringify(file));
    expect(
      (await server.call<{ snippets: unknown[] }>('GET', '/api/snippets?q=polite')).snippets,
    ).toHaveLength(2);
    expect((await server.call<{ macros: unknown[] }>('GET', '/api/macros')).macros).toHaveLength(1);
  });
});
