import type { CommandDescriptor, McpPromptResult, McpServer } from '@youyou/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/databases.ts';
import { EVERYTHING_SERVER } from './support/mcp-servers.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

describe('MCP prompts as / commands', () => {
  let database: TestDatabase;
  let server: TestServer;
  let everything: McpServer;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    server = await startTestServer({ database });
    everything = await server.call<McpServer>('POST', '/api/mcp/servers', {
      name: 'everything',
      transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
    });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  const commands = async () =>
    (await server.call<{ commands: CommandDescriptor[] }>('GET', '/api/commands')).commands;

  it('a connected server’s prompts are listed as commands with their arguments, and one fills the composer text', async () => {
    // Listing commands does not start a server.
    expect((await commands()).some((command) => command.source === 'mcp')).toBe(false);
    await server.call('POST', `/api/mcp/servers/${everything.id}/connect`);
    const listed = await commands();
    const prompt = listed.find((command) => command.name === 'everything__args-prompt');
    expect(prompt).toMatchObject({
      source: 'mcp',
      action: 'mcp_prompt',
      source_id: `${everything.id}:args-prompt`,
    });
    expect(prompt?.parameters.map((parameter) => [parameter.name, parameter.required])).toEqual([
      ['city', true],
      ['state', false],
    ]);
    // Built-in commands keep their names: a prompt never shadows them.
    expect(listed.filter((command) => command.name === 'new')).toHaveLength(1);

    const filled = await server.call<McpPromptResult>(
      'POST',
      `/api/mcp/servers/${everything.id}/prompts/args-prompt`,
      { arguments: { city: 'Berlin', state: 'BE' } },
    );
    expect(filled.messages).toEqual([{ role: 'user', text: "What's weather in Berlin, BE?" }]);
    expect(filled.text).toBe("What's weather in Berlin, BE?");
  });

  it('a missing argument or an unknown prompt is a structured error; an unknown server a 404', async () => {
    const missing = await server.request<{ error: { code: string } }>(
      'POST',
      `/api/mcp/servers/${everything.id}/prompts/args-prompt`,
      { body: { arguments: {} } },
    );
    expect([missing.status, missing.body.error.code]).toEqual([400, 'INVALID_INPUT']);
    const unknown = await server.request<{ error: { code: string } }>(
      'POST',
      `/api/mcp/servers/${everything.id}/prompts/no-such-prompt`,
      { body: { arguments: {} } },
    );
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 'INVALID_INPUT']);
    const badBody = await server.request<{ error: { code: string } }>(
      'POST',
      `/api/mcp/servers/${everything.id}/prompts/args-prompt`,
      { body: { arguments: { city: 7 } } },
    );
    expect([badBody.status, badBody.body.error.code]).toEqual([400, 'INVALID_INPUT']);
    const noServer = await server.request<{ error: { code: string } }>(
      'POST',
      '/api/mcp/servers/no-such-server/prompts/args-prompt',
      { body: { arguments: {} } },
    );
    expect([noServer.status, noServer.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });
});
