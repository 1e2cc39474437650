import type { McpServer, ToolAuditRecord, ToolInfo } from '@youyou/contracts';
import { fakeTextReply, fakeToolCallReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { waitingCard } from './support/hitl.ts';
import { EVERYTHING_SERVER } from './support/mcp-servers.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';

/** One turn in which the model calls `tool` once, then answers; resolves when the run has ended. */
async function callOnce(server: TestServer, tool: string, args: Record<string, unknown>) {
  server.fake.push(fakeToolCallReply(tool, args), fakeTextReply('done'));
  const { conversationId, runId } = await sendFirstMessage(server, `call ${tool}`);
  await server.settled(conversationId, runId);
  return conversationId;
}

describe.each(DATABASE_KINDS)('the audit of every tool call (Settings → Tools) on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('lists the calls of every conversation newest first, by tool, a page at a time', async () => {
    const first = await callOnce(server, 'current_time', {});
    const second = await callOnce(server, 'list_files', {});
    const third = await callOnce(server, 'current_time', {});
    const all = await server.call<{ calls: ToolAuditRecord[] }>('GET', '/api/tool-calls');
    expect(all.calls.map((call) => [call.conversation_id, call.tool_name])).toEqual([
      [third, 'current_time'],
      [second, 'list_files'],
      [first, 'current_time'],
    ]);
    expect(all.calls[0]).toMatchObject({ outcome: 'success', policy: 'auto', decided_by: 'policy' });

    const byTool = await server.call<{ calls: ToolAuditRecord[] }>(
      'GET',
      '/api/tool-calls?tool_name=current_time',
    );
    expect(byTool.calls.map((call) => call.conversation_id)).toEqual([third, first]);

    const page = await server.call<{ calls: ToolAuditRecord[] }>('GET', '/api/tool-calls?limit=2');
    expect(page.calls).toHaveLength(2);
    const older = await server.call<{ calls: ToolAuditRecord[] }>(
      'GET',
      `/api/tool-calls?limit=2&before=${String(Date.parse(page.calls[1]?.started_at ?? ''))}`,
    );
    expect(older.calls.map((call) => call.conversation_id)).toEqual([first]);
  });

  it('a bad page size or cursor is a structured 400', async () => {
    for (const query of ['limit=0', 'limit=501', 'limit=many', 'before=-1', 'before=yesterday']) {
      const response = await server.request<{ error: { code: string } }>('GET', `/api/tool-calls?${query}`);
      expect([query, response.status, response.body.error.code]).toEqual([query, 400, 'INVALID_INPUT']);
    }
  });
});

describe('MCP tools in the tool settings', () => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    server = await startTestServer({ database });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('a connected server’s tools are listed as mcp before any conversation used them, and the policy set for one applies', async () => {
    const everything = await server.call<McpServer>('POST', '/api/mcp/servers', {
      name: 'everything',
      transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
    });
    const connected = await server.call<McpServer>('POST', `/api/mcp/servers/${everything.id}/connect`);
    expect(connected.status.state).toBe('connected');
    const listed = (await server.call<{ tools: ToolInfo[] }>('GET', '/api/tools')).tools;
    const echo = listed.find((tool) => tool.name === 'everything__echo');
    // The server marks echo read-only (readOnlyHint), so it runs at once by default.
    expect(echo).toMatchObject({ source: 'mcp', mutating: false, policy: 'auto', default_policy: 'auto' });
    // Built-in tools are listed first, MCP tools last.
    expect(listed[0]?.source).toBe('builtin');
    expect(listed.at(-1)?.source).toBe('mcp');

    const confirmed = await server.call<ToolInfo>('PUT', '/api/tools/everything__echo', {
      policy: 'confirm',
    });
    expect(confirmed).toMatchObject({ source: 'mcp', policy: 'confirm' });
    // Asked first: the call waits on a confirm card.
    server.fake.push(fakeToolCallReply('everything__echo', { message: 'asked' }), fakeTextReply('done'));
    const asked = await sendFirstMessage(server, 'echo, asking first');
    const card = await waitingCard(server, asked.conversationId);
    expect(card.card.confirmation?.tool_name).toBe('everything__echo');
    await server.call('POST', `/api/conversations/${asked.conversationId}/cards/${card.card.id}/answer`, {
      answer: { type: 'confirm', confirmed: true },
    });
    await server.settled(asked.conversationId, asked.runId);

    // Back to the default, the next call runs at once; the agent loading it keeps it `mcp`.
    const restored = await server.call<ToolInfo>('PUT', '/api/tools/everything__echo', { policy: null });
    expect(restored).toMatchObject({ source: 'mcp', policy: 'auto' });
    const conversationId = await callOnce(server, 'everything__echo', { message: 'at once' });
    const { calls } = await server.call<{ calls: ToolAuditRecord[] }>(
      'GET',
      `/api/conversations/${conversationId}/tool-calls`,
    );
    expect(calls[0]).toMatchObject({ tool_name: 'everything__echo', policy: 'auto', decided_by: 'policy' });
    const after = (await server.call<{ tools: ToolInfo[] }>('GET', '/api/tools')).tools;
    expect(after.find((tool) => tool.name === 'everything__echo')?.source).toBe('mcp');
  }, 60_000);
});
