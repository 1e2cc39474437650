import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConversationMessage, McpServer } from '@youyou/contracts';
import { fakeTextReply, fakeToolCallReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { EVERYTHING_SERVER, eventually } from './support/mcp-servers.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';

const FAULT_SERVER = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'mcp-fault-server.mjs');

type Part = ConversationMessage['parts'][number];

/** One turn in which the model calls `tool`, then answers; returns the tool's result part. */
async function callThroughModel(server: TestServer, tool: string, args: Record<string, unknown> = {}) {
  server.fake.push(fakeToolCallReply(tool, args), fakeTextReply('done'));
  const { conversationId, runId } = await sendFirstMessage(server, `call ${tool}`);
  const view = await server.settled(conversationId, runId);
  const part = view.messages[1]?.parts.find((candidate: Part) => candidate.type === 'tool_result');
  if (part?.type !== 'tool_result') throw new Error(`no tool result in ${JSON.stringify(view.messages)}`);
  return part;
}

// In-process servers: an error escaping an MCP transport would end this test process too.
describe.each(DATABASE_KINDS)('MCP servers that misbehave on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let faults: McpServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database, server: { mcpRestartBaseMs: 50 } });
    faults = await server.call<McpServer>('POST', '/api/mcp/servers', {
      name: 'faults',
      transport: { type: 'stdio', command: process.execPath, args: [FAULT_SERVER] },
    });
    await server.call<McpServer>('POST', '/api/mcp/servers', {
      name: 'everything',
      transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
    });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  const status = async () => (await server.call<McpServer>('GET', `/api/mcp/servers/${faults.id}`)).status;

  it('a reply over 10 MiB fails only that call with MCP_MESSAGE_TOO_LARGE, and the server is restarted', async () => {
    expect((await callThroughModel(server, 'faults__echo', { text: 'before' })).output).toBe('echo: before');
    const before = (await status()).restarts;
    const result = await callThroughModel(server, 'faults__huge', { bytes: 11 * 1024 * 1024 });
    expect(result.is_error).toBe(true);
    expect(result.output).toContain('MCP_MESSAGE_TOO_LARGE');
    expect(result.output).toContain("'faults'");
    const restarted = await eventually(async () => {
      const now = await status();
      return now.restarts > before && now.state === 'connected' ? now : undefined;
    });
    expect(restarted.restarts).toBe(before + 1);
    // The same server answers again, and the other server never noticed.
    expect((await callThroughModel(server, 'faults__echo', { text: 'after' })).output).toBe('echo: after');
    expect((await callThroughModel(server, 'everything__echo', { message: 'untouched' })).output).toBe(
      'Echo: untouched',
    );
  });

  it('lines that are not JSON-RPC are skipped and the call still gets its answer', async () => {
    const result = await callThroughModel(server, 'faults__garbage');
    expect(result).toMatchObject({ is_error: false, output: 'answered after garbage' });
  });

  it('a server that exits mid-message fails the call, is restarted, and the workbench stays up', async () => {
    const before = (await status()).restarts;
    const result = await callThroughModel(server, 'faults__half_then_exit');
    expect(result.is_error).toBe(true);
    await eventually(async () => {
      const now = await status();
      return now.restarts > before && now.state === 'connected' ? now : undefined;
    });
    expect((await callThroughModel(server, 'faults__echo', { text: 'again' })).output).toBe('echo: again');
    expect((await server.call<{ status: string }>('GET', '/api/health')).status).toBeDefined();
  });
});
