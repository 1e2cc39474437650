import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentProfile, McpServer, ToolAuditRecord } from '@youyou/contracts';
import { fakeTextReply, fakeToolCallReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { waitingCard } from './support/hitl.ts';
import { EVERYTHING_SERVER } from './support/mcp-servers.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** A read-only file tool (`mutating: false`): by default it runs without asking. */
async function writeReadOnlyTool(home: string, name: string): Promise<void> {
  const folder = join(home, 'tools', name);
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, 'index.md'),
    `---\nversion: 1\nname: ${name}\nmutating: false\nparameters:\n  - name: query\n    type: string\n    required: true\nexecution:\n  command: ./run.sh\n---\nLooks a query up (${name}).\n`,
  );
  await writeFile(join(folder, 'run.sh'), '#!/bin/sh\necho read-only\n');
  await chmod(join(folder, 'run.sh'), 0o755);
}

describe.each(DATABASE_KINDS)('a profile’s confirm list on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let profileId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
    await writeReadOnlyTool(server.directories.home, 'ro');
    const everything = await server.call<McpServer>('POST', '/api/mcp/servers', {
      name: 'everything',
      transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
    });
    await server.call('POST', `/api/mcp/servers/${everything.id}/connect`);
    const profile = await server.call<AgentProfile>('POST', '/api/profiles', {
      name: 'Careful',
      systemPrompt: '',
      model: { router: 'chat' },
      parameters: {},
      tools: { allow: ['*'], deny: [], confirm: ['current_time', 'ro', 'list_files', 'everything__echo'] },
      context: { policy: 'default' },
      hitl: { askOnAmbiguity: true, timeoutSec: null },
      budget: {},
    });
    profileId = profile.id;
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  async function careful(): Promise<string> {
    return (await server.call<{ id: string }>('POST', '/api/conversations', { profile_id: profileId })).id;
  }

  async function send(conversationId: string, text: string): Promise<string> {
    return (
      await server.call<{ run: { id: string } }>('POST', `/api/conversations/${conversationId}/messages`, {
        text,
      })
    ).run.id;
  }

  async function allow(conversationId: string, scope: 'once' | 'conversation' = 'once') {
    const card = await waitingCard(server, conversationId);
    await server.call('POST', `/api/conversations/${conversationId}/cards/${card.card.id}/answer`, {
      answer: { type: 'confirm', confirmed: true, scope },
    });
    return card;
  }

  async function audit(conversationId: string): Promise<ToolAuditRecord[]> {
    return (
      await server.call<{ calls: ToolAuditRecord[] }>(
        'GET',
        `/api/conversations/${conversationId}/tool-calls`,
      )
    ).calls;
  }

  it.each([
    ['a built-in tool', 'current_time', {}],
    ['a file tool', 'ro', { query: 'x' }],
    ['an MCP tool', 'everything__echo', { message: 'hi' }],
  ])(
    '%s the list names asks first though it is read-only, and the audit says the user decided',
    async (_, tool, args) => {
      server.fake.push(fakeToolCallReply(tool, args), fakeTextReply('done'));
      const conversationId = await careful();
      const runId = await send(conversationId, `call ${tool}`);
      const card = await allow(conversationId);
      expect(card.card.confirmation).toMatchObject({ tool_name: tool, mutating: false });
      await server.settled(conversationId, runId);
      expect(await audit(conversationId)).toEqual([
        expect.objectContaining({
          tool_name: tool,
          policy: 'confirm',
          decided_by: 'user',
          outcome: 'success',
        }),
      ]);
    },
    30_000,
  );

  it('a listed tool a sub-agent calls asks in the conversation too', async () => {
    server.fake.push(
      fakeToolCallReply('spawn_agent', { task: 'tell the time', tools: ['current_time'] }),
      fakeToolCallReply('current_time', {}),
      fakeTextReply('it is now'),
      fakeTextReply('done'),
    );
    const conversationId = await careful();
    const runId = await send(conversationId, 'delegate');
    const card = await allow(conversationId);
    expect(card.card.confirmation?.tool_name).toBe('current_time');
    await server.settled(conversationId, runId);
    const calls = await server.call<{ calls: ToolAuditRecord[] }>(
      'GET',
      '/api/tool-calls?tool_name=current_time&limit=1',
    );
    expect(calls.calls[0]).toMatchObject({ decided_by: 'user', card_id: card.card.id });
  }, 30_000);

  it('“allow for this conversation” covers only the tool allowed; the next listed tool still asks', async () => {
    const conversationId = await careful();
    server.fake.push(fakeToolCallReply('current_time', {}), fakeTextReply('done'));
    const first = await send(conversationId, 'time');
    await allow(conversationId, 'conversation');
    await server.settled(conversationId, first);

    server.fake.push(
      fakeToolCallReply('current_time', {}),
      fakeToolCallReply('list_files', {}),
      fakeTextReply('done'),
    );
    const second = await send(conversationId, 'time and files');
    const card = await allow(conversationId);
    expect(card.card.confirmation?.tool_name).toBe('list_files');
    await server.settled(conversationId, second);
    const calls = await audit(conversationId);
    expect(calls.map((call) => [call.tool_name, call.decided_by])).toEqual([
      ['list_files', 'user'],
      ['current_time', 'conversation_grant'],
      ['current_time', 'user'],
    ]);
  }, 30_000);

  it('a tool not on the list keeps its own policy; a conversation without the profile is not asked', async () => {
    server.fake.push(fakeToolCallReply('read_file', { path: 'nothing.txt' }), fakeTextReply('done'));
    const conversationId = await careful();
    const runId = await send(conversationId, 'read');
    await server.settled(conversationId, runId);
    expect((await audit(conversationId))[0]).toMatchObject({ tool_name: 'read_file', decided_by: 'policy' });

    server.fake.push(fakeToolCallReply('current_time', {}), fakeTextReply('done'));
    const plain = (await server.call<{ id: string }>('POST', '/api/conversations', {})).id;
    await server.settled(plain, await send(plain, 'time'));
    expect((await audit(plain))[0]).toMatchObject({ tool_name: 'current_time', decided_by: 'policy' });
  }, 30_000);
});
