import OpenAI from 'openai';
import { fakeTextReply, fakeToolCallReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentProfile, ConversationMessage } from '@youyou/contracts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { EVERYTHING_SERVER } from './support/mcp-servers.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

type Extended = { youyou: { conversation_id: string; run_id: string } };

describe.each(DATABASE_KINDS)('the OpenAI-compatible agent endpoint on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let client: OpenAI;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
    await server.call('POST', '/api/mcp/servers', {
      name: 'everything',
      transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
    });
    client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.token, maxRetries: 0 });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('/v1/models lists the default agent, every profile and every configured model; each runs as picked', async () => {
    const reviewer = await server.call<AgentProfile>('POST', '/api/profiles', {
      name: 'Reviewer',
      description: 'Reviews code, tersely.',
      systemPrompt: 'REVIEWER-PROFILE: review the code.',
      model: { router: 'chat' },
      parameters: {},
      tools: { allow: ['*'], deny: [], confirm: [] },
      context: { policy: 'default' },
      hitl: { askOnAmbiguity: true, timeoutSec: null },
      budget: {},
    });
    const models = await client.models.list();
    const ids = models.data.map((model) => model.id);
    expect(ids[0]).toBe('youyou');
    expect(ids).toEqual(
      expect.arrayContaining(['youyou:default', `youyou:${reviewer.id}`, 'fake/fake-model']) as string[],
    );
    expect(models.data.find((model) => model.id === `youyou:${reviewer.id}`)).toMatchObject({
      object: 'model',
      owned_by: 'youyou',
      youyou: { kind: 'profile', profile_id: reviewer.id, name: 'Reviewer' },
    });
    expect(models.data.find((model) => model.id === 'fake/fake-model')).toMatchObject({
      owned_by: 'fake',
      youyou: { kind: 'model' },
    });

    // A profile picked as the model: its agent answers, and the conversation keeps the profile.
    server.fake.push(fakeTextReply('Looks fine.'));
    const reviewed = await client.chat.completions.create({
      model: `youyou:${reviewer.id}`,
      messages: [{ role: 'user', content: 'Review this: x = 1' }],
    });
    expect(reviewed.choices[0]?.message.content).toBe('Looks fine.');
    expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).toContain('REVIEWER-PROFILE');
    const { conversation_id: conversationId } = (reviewed as unknown as Extended).youyou;
    const view = await server.call<{ conversation: { profile_id: string | null } }>(
      'GET',
      `/api/conversations/${conversationId}`,
    );
    expect(view.conversation.profile_id).toBe(reviewer.id);

    // A model picked: the default agent on that model.
    server.fake.push(fakeTextReply('On the fake model.'));
    const direct = await client.chat.completions.create({
      model: 'fake/fake-model',
      messages: [{ role: 'user', content: 'Which model?' }],
    });
    expect(direct.model).toBe('fake/fake-model');
    expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).not.toContain('REVIEWER-PROFILE');

    // An unknown profile is a 404 that lists what there is.
    await expect(
      client.chat.completions.create({
        model: 'youyou:no-such-profile',
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('a completion runs a server-side tool call and answers in the OpenAI format with usage', async () => {
    server.fake.push(fakeToolCallReply('everything__get-sum', { a: 2, b: 3 }), {
      type: 'stream',
      steps: [
        { type: 'text', text: 'The sum is 5.' },
        { type: 'usage', inputTokens: 40, outputTokens: 6 },
      ],
    });
    const completion = await client.chat.completions.create({
      model: 'youyou',
      messages: [
        { role: 'system', content: 'Answer in one sentence.' },
        { role: 'user', content: 'What is 2 + 3? Use the tool.' },
      ],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]).toMatchObject({
      index: 0,
      finish_reason: 'stop',
      message: { role: 'assistant', content: 'The sum is 5.' },
    });
    expect(completion.choices[0]?.message.tool_calls).toBeUndefined();
    expect(completion.usage?.completion_tokens).toBeGreaterThanOrEqual(6);
    expect(completion.usage?.total_tokens).toBe(
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
    // The tool ran on the server: the second model request carries its result.
    const second = server.fake.chatRequests.at(-1)?.body as {
      messages: { role: string; content: unknown }[];
    };
    expect(JSON.stringify(second.messages.filter((message) => message.role === 'tool'))).toContain('5');
    // The run is a conversation the user can open in the workbench.
    const { conversation_id: conversationId } = (completion as unknown as Extended).youyou;
    const view = await server.call<{ conversation: { title: string }; messages: ConversationMessage[] }>(
      'GET',
      `/api/conversations/${conversationId}`,
    );
    expect(view.conversation.title).toBe('What is 2 + 3? Use the tool.');
    expect(view.messages[1]?.parts.map((part) => part.type)).toEqual(['tool_call', 'tool_result', 'text']);
  });

  it('a streamed completion arrives as chat.completion.chunk deltas, then usage, through the official client', async () => {
    server.fake.push(fakeToolCallReply('everything__echo', { message: 'streamed' }), {
      type: 'stream',
      steps: [
        { type: 'reasoning', text: 'Thinking.' },
        { type: 'text', text: 'Echo ' },
        { type: 'text', text: 'said streamed.' },
      ],
    });
    const stream = await client.chat.completions.create({
      model: 'youyou',
      messages: [{ role: 'user', content: 'Echo please' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('Echo said streamed.');
    const reasoning = chunks
      .map(
        (chunk) =>
          (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '',
      )
      .join('');
    expect(reasoning).toBe('Thinking.');
    expect(
      chunks.find((chunk) => chunk.choices[0]?.finish_reason !== null && chunk.choices[0] !== undefined)
        ?.choices[0]?.finish_reason,
    ).toBe('stop');
    const usage = chunks.at(-1);
    expect(usage?.choices).toEqual([]);
    expect(usage?.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('metadata.conversation_id continues a conversation with only the new message', async () => {
    server.fake.push(fakeTextReply('One.'));
    const first = await client.chat.completions.create({
      model: 'youyou',
      messages: [{ role: 'user', content: 'Count: one' }],
    });
    const conversationId = (first as unknown as Extended).youyou.conversation_id;
    server.fake.push(fakeTextReply('Two.'));
    const second = await client.chat.completions.create({
      model: 'youyou',
      metadata: { conversation_id: conversationId },
      messages: [
        { role: 'user', content: 'Count: one' },
        { role: 'assistant', content: 'One.' },
        { role: 'user', content: 'Count: two' },
      ],
    });
    expect(second.choices[0]?.message.content).toBe('Two.');
    const view = await server.call<{ messages: ConversationMessage[] }>(
      'GET',
      `/api/conversations/${conversationId}`,
    );
    expect(view.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(view.messages[2]?.parts[0]).toMatchObject({ text: 'Count: two' });
  });

  it('a history the workbench does not hold reaches the agent as a transcript', async () => {
    server.fake.push(fakeTextReply('Blue.'));
    await client.chat.completions.create({
      model: 'youyou',
      messages: [
        { role: 'user', content: 'My favourite colour is blue.' },
        { role: 'assistant', content: 'Noted.' },
        { role: 'user', content: 'What is my favourite colour?' },
      ],
    });
    const sent = JSON.stringify(server.fake.chatRequests.at(-1)?.body);
    expect(sent).toContain('My favourite colour is blue.');
    expect(sent).toContain('What is my favourite colour?');
  });

  it('errors come back as OpenAI client errors with our machine codes', async () => {
    await expect(
      client.chat.completions.create({ model: 'gpt-unknown', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    await expect(client.chat.completions.create({ model: 'youyou', messages: [] })).rejects.toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
    });
    const anonymous = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'not-the-token', maxRetries: 0 });
    await expect(anonymous.models.list()).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    server.fake.push({ type: 'unauthorized' });
    await expect(
      client.chat.completions.create({ model: 'youyou', messages: [{ role: 'user', content: 'fails' }] }),
    ).rejects.toMatchObject({
      status: 502,
    });
    const crossSite = await server.request('POST', '/v1/chat/completions', {
      headers: { origin: 'https://evil.example' },
      body: { model: 'youyou', messages: [{ role: 'user', content: 'x' }] },
    });
    expect(crossSite.status).toBe(403);
    const unknownRoute = await server.request<{ error: { code: string } }>('GET', '/v1/embeddings');
    expect([unknownRoute.status, unknownRoute.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });
});
