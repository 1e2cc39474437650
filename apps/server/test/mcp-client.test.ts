import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { McpServer } from '@youyou/contracts';
import { fakeTextReply, fakeToolCallReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationMessage } from '@youyou/contracts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import {
  DYNAMIC_SERVER,
  EVERYTHING_SERVER,
  eventually,
  FILESYSTEM_SERVER,
  isAlive,
  recordedMessages,
  recordedPids,
  recordedStdio,
  startEverythingOverHttp,
} from './support/mcp-servers.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';

type Part = ConversationMessage['parts'][number];

function toolResult(message: ConversationMessage | undefined): Extract<Part, { type: 'tool_result' }> {
  const part = message?.parts.find((candidate) => candidate.type === 'tool_result');
  if (part?.type !== 'tool_result') throw new Error(`no tool result in ${JSON.stringify(message?.parts)}`);
  return part;
}

/** One turn in which the model calls `tool` with `args`, then answers; returns the tool's result. */
async function callThroughModel(server: TestServer, tool: string, args: Record<string, unknown>) {
  server.fake.push(fakeToolCallReply(tool, args), fakeTextReply('done'));
  const { conversationId, runId } = await sendFirstMessage(server, `call ${tool}`);
  const view = await server.settled(conversationId, runId);
  return toolResult(view.messages[1]);
}

/** The `tools/call` of trigger-long-running-operation for `duration` seconds the server got, if any. */
async function longRunningCall(log: string, duration: number) {
  return (await recordedMessages(log)).find((message) => {
    const params = message['params'] as { name?: unknown; arguments?: { duration?: unknown } } | undefined;
    return (
      message['method'] === 'tools/call' &&
      params?.name === 'trigger-long-running-operation' &&
      params.arguments?.duration === duration
    );
  });
}

/** MCP's `notifications/cancelled` for request `id` the server got, if any. */
async function cancelNotification(log: string, id: unknown) {
  return (await recordedMessages(log)).find(
    (message) =>
      message['method'] === 'notifications/cancelled' &&
      (message['params'] as { requestId?: unknown } | undefined)?.requestId === id,
  );
}

describe.each(DATABASE_KINDS)('MCP server configuration over HTTP on %s', (kind) => {
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

  it('a configured server is listed as idle until first used, and its secret headers are never returned', async () => {
    const created = await server.call<McpServer>('POST', '/api/mcp/servers', {
      name: 'remote-docs',
      transport: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Team': 'docs' } },
      secret_headers: { Authorization: 'Bearer secret-value-never-returned' },
    });
    expect(created).toMatchObject({
      name: 'remote-docs',
      scope: 'user',
      project_id: null,
      enabled: true,
      transport: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Team': 'docs' } },
      secret_header_names: ['Authorization'],
      status: { state: 'idle', tool_count: 0, error: null },
    });
    const listed = await server.request('GET', '/api/mcp/servers');
    expect(JSON.stringify(listed.body)).not.toContain('secret-value-never-returned');
    const changed = await server.call<McpServer>('PATCH', `/api/mcp/servers/${created.id}`, {
      secret_headers: { Authorization: null },
      enabled: false,
    });
    expect(changed).toMatchObject({ secret_header_names: [], enabled: false, status: { state: 'disabled' } });
    expect(server.logs.join('\n')).not.toContain('secret-value-never-returned');
    expect((await server.request('DELETE', `/api/mcp/servers/${created.id}`)).status).toBe(204);
    expect((await server.request('GET', `/api/mcp/servers/${created.id}`)).status).toBe(404);
  });

  it('bad configurations are refused with a machine code and nothing is stored', async () => {
    const stdio = { type: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER] };
    const cases: [unknown, number, string][] = [
      [{ name: 'Bad Name', transport: stdio }, 400, 'INVALID_INPUT'],
      [{ name: 'a__b', transport: stdio }, 400, 'INVALID_INPUT'],
      [{ name: 'ok', transport: { type: 'http', url: 'file:///etc/passwd' } }, 400, 'INVALID_INPUT'],
      [{ name: 'ok', transport: { type: 'ftp' } }, 400, 'INVALID_INPUT'],
      [{ name: 'ok', scope: 'project', transport: stdio }, 400, 'INVALID_INPUT'],
      [{ name: 'ok', scope: 'project', project_id: 'no-such-project', transport: stdio }, 404, 'NOT_FOUND'],
      [{ name: 'ok', transport: stdio, secret_headers: { Authorization: 'x' } }, 400, 'INVALID_INPUT'],
    ];
    for (const [body, status, code] of cases) {
      const response = await server.request<{ error: { code: string } }>('POST', '/api/mcp/servers', {
        body,
      });
      expect({ body, status: response.status, code: response.body.error.code }).toEqual({
        body,
        status,
        code,
      });
    }
    await server.call('POST', '/api/mcp/servers', { name: 'twice', transport: stdio, enabled: false });
    const duplicate = await server.request<{ error: { code: string } }>('POST', '/api/mcp/servers', {
      body: { name: 'twice', transport: stdio },
    });
    expect([duplicate.status, duplicate.body.error.code]).toEqual([409, 'CONFLICT']);
    const servers = await server.call<{ servers: McpServer[] }>('GET', '/api/mcp/servers');
    expect(servers.servers.map((entry) => entry.name)).toEqual(['twice']);
  });

  it('a project server applies to that project only and goes with the project', async () => {
    const directory = join(server.directories.root, 'mcp-project');
    await mkdir(directory, { recursive: true });
    const project = await server.call<{ id: string }>('POST', '/api/projects', { name: 'MCP', directory });
    const created = await server.call<McpServer>('POST', '/api/mcp/servers', {
      name: 'project-tools',
      scope: 'project',
      project_id: project.id,
      transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
    });
    const ofProject = await server.call<{ servers: McpServer[] }>(
      'GET',
      `/api/mcp/servers?project_id=${project.id}`,
    );
    expect(ofProject.servers.map((entry) => entry.id)).toEqual([created.id]);
    const ofUser = await server.call<{ servers: McpServer[] }>('GET', '/api/mcp/servers?scope=user');
    expect(ofUser.servers.map((entry) => entry.id)).not.toContain(created.id);
    await server.call('DELETE', `/api/projects/${project.id}?force=true`);
    expect((await server.request('GET', `/api/mcp/servers/${created.id}`)).status).toBe(404);
  });
});

describe('MCP tools from real servers in conversations', () => {
  let database: TestDatabase;
  let server: TestServer;
  let log: string;
  let everything: McpServer;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    server = await startTestServer({
      database,
      server: {
        mcpRestartBaseMs: 50,
        // Long enough for a 1 s call to finish after a cancel, short enough for a quick test.
        mcpCancelGraceMs: 2_500,
      },
    });
    log = join(server.directories.root, 'everything-stdio.log');
    everything = await server.call<McpServer>('POST', '/api/mcp/servers', {
      name: 'everything',
      transport: recordedStdio(log, [EVERYTHING_SERVER, 'stdio']),
    });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('the everything server over stdio starts on first use and its tools run as namespaced tools', async () => {
    const result = await callThroughModel(server, 'everything__echo', { message: 'hello MCP' });
    expect(result).toMatchObject({
      tool_name: 'everything__echo',
      output: 'Echo: hello MCP',
      is_error: false,
    });
    const status = (await server.call<McpServer>('GET', `/api/mcp/servers/${everything.id}`)).status;
    expect(status.state).toBe('connected');
    expect(status.server_info?.name).toBe('mcp-servers/everything');
    expect(status.tool_count).toBe(status.tools.length);
    const byName = new Map(status.tools.map((tool) => [tool.name, tool]));
    // readOnlyHint → read-only; readOnlyHint false → mutating.
    expect(byName.get('everything__echo')?.mutating).toBe(false);
    expect(byName.get('everything__toggle-simulated-logging')?.mutating).toBe(true);
    expect(status.skipped_tools.map((tool) => tool.remote_name)).toContain('simulate-research-query');
  });

  it('arguments are checked against the MCP input schema before the server sees them', async () => {
    const result = await callThroughModel(server, 'everything__get-sum', { a: 'one', b: 2 });
    expect(result.is_error).toBe(true);
    expect(result.output).toContain('INVALID_INPUT');
    const calls = (await recordedMessages(log)).filter((message) => message['method'] === 'tools/call');
    expect(calls.some((call) => JSON.stringify(call).includes('get-sum'))).toBe(false);
  });

  it('an image result reaches the model as a described image; structured content as JSON', async () => {
    const image = await callThroughModel(server, 'everything__get-tiny-image', {});
    expect(image.is_error).toBe(false);
    expect(image.output).toMatch(/\[image: image\/png, [\d.]+ (B|kB)\]/);
    const links = await callThroughModel(server, 'everything__get-resource-links', { count: 2 });
    expect(links.output).toContain('[resource link: ');
    expect(links.output).toContain('demo://resource/dynamic/');
  });

  it('an image result is stored as an upload of the conversation and shown after the tool result', async () => {
    server.fake.push(fakeToolCallReply('everything__get-tiny-image', {}), fakeTextReply('done'));
    const { conversationId, runId } = await sendFirstMessage(server, 'show me the tiny image');
    const view = await server.settled(conversationId, runId);
    const parts = view.messages[1]?.parts ?? [];
    const resultAt = parts.findIndex((part) => part.type === 'tool_result');
    const attachment = parts[resultAt + 1];
    expect(attachment).toMatchObject({
      type: 'attachment',
      name: 'everything__get-tiny-image-1.png',
      media_type: 'image/png',
      status: 'complete',
    });
    const uploadId = attachment?.type === 'attachment' ? attachment.upload_id : '';
    const upload = await server.call<{ conversation_id: string; size: number }>(
      'GET',
      `/api/uploads/${uploadId}`,
    );
    expect(upload.conversation_id).toBe(conversationId);
    const content = await fetch(`${server.url}/api/uploads/${uploadId}/content`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    const bytes = new Uint8Array(await content.arrayBuffer());
    expect([...bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(bytes.byteLength).toBe(upload.size);
    // The event log keeps the reference, not the base64.
    const events = await server.call<{ events: { type: string; payload: unknown }[] }>(
      'GET',
      `/api/conversations/${conversationId}/event-log`,
    );
    const result = events.events.find((event) => event.type === 'tool.result');
    expect(result?.payload).toMatchObject({
      attachments: [{ upload_id: uploadId, media_type: 'image/png' }],
    });
    expect(JSON.stringify(result).length).toBeLessThan(2000);
  });

  it('on cancel a running MCP call that finishes within the grace period keeps its result, and the run ends cancelled', async () => {
    server.fake.push(
      fakeToolCallReply('everything__trigger-long-running-operation', { duration: 1, steps: 1 }),
    );
    const { conversationId, runId } = await sendFirstMessage(server, 'run something short');
    const call = await eventually(() => longRunningCall(log, 1));
    await server.call('POST', `/api/runs/${runId}/cancel`);
    const view = await server.settled(conversationId, runId);
    expect(view.runs.find((run) => run.id === runId)?.status).toBe('cancelled');
    expect(toolResult(view.messages[1])).toMatchObject({
      is_error: false,
      output: 'Long running operation completed. Duration: 1 seconds, Steps: 1.',
    });
    expect(await cancelNotification(log, call['id'])).toBeUndefined();
  });

  it('a running MCP call past the cancel grace period is cancelled the MCP way, and the run ends cancelled', async () => {
    server.fake.push(
      fakeToolCallReply('everything__trigger-long-running-operation', { duration: 60, steps: 60 }),
    );
    const { conversationId, runId } = await sendFirstMessage(server, 'run something long');
    const call = await eventually(() => longRunningCall(log, 60));
    await server.call('POST', `/api/runs/${runId}/cancel`);
    const view = await server.settled(conversationId, runId);
    expect(view.runs.find((run) => run.id === runId)?.status).toBe('cancelled');
    expect(toolResult(view.messages[1])).toMatchObject({ is_error: true });
    expect(toolResult(view.messages[1]).output).toContain('REQUEST_CANCELLED');
    await eventually(() => cancelNotification(log, call['id']));
    // The server stays usable.
    const after = await callThroughModel(server, 'everything__echo', { message: 'still here' });
    expect(after.output).toBe('Echo: still here');
  });

  it('a tool past its timeout fails with TOOL_TIMEOUT and the server is told to stop', async () => {
    const slow = await server.call<McpServer>('POST', '/api/mcp/servers', {
      name: 'slow',
      tool_timeout_ms: 300,
      transport: recordedStdio(`${log}.slow`, [EVERYTHING_SERVER, 'stdio']),
    });
    const result = await callThroughModel(server, 'slow__trigger-long-running-operation', {
      duration: 30,
      steps: 30,
    });
    expect(result.is_error).toBe(true);
    expect(result.output).toContain('TOOL_TIMEOUT');
    await eventually(async () =>
      (await recordedMessages(`${log}.slow`)).some(
        (message) => message['method'] === 'notifications/cancelled',
      ),
    );
    await server.call('DELETE', `/api/mcp/servers/${slow.id}`);
  });

  it('a crashed server is restarted with backoff and its tools work again', async () => {
    await callThroughModel(server, 'everything__echo', { message: 'before' });
    const { server: pid } = await recordedPids(log);
    process.kill(pid, 'SIGKILL');
    const failed = await eventually(async () => {
      const status = (await server.call<McpServer>('GET', `/api/mcp/servers/${everything.id}`)).status;
      return status.restarts >= 1 && status.state === 'connected' ? status : undefined;
    });
    expect(failed.restarts).toBeGreaterThanOrEqual(1);
    const { server: newPid } = await recordedPids(log);
    expect(newPid).not.toBe(pid);
    const after = await callThroughModel(server, 'everything__echo', { message: 'after the crash' });
    expect(after.output).toBe('Echo: after the crash');
  });

  it('a tool the server adds at runtime (tools/list_changed) is offered from the next turn', async () => {
    const dynamic = await server.call<McpServer>('POST', '/api/mcp/servers', {
      name: 'dynamic',
      transport: { type: 'stdio', command: process.execPath, args: [DYNAMIC_SERVER] },
    });
    const added = await callThroughModel(server, 'dynamic__add_tool', { name: 'fresh' });
    expect(added.output).toBe('added fresh');
    await eventually(async () =>
      (await server.call<McpServer>('GET', `/api/mcp/servers/${dynamic.id}`)).status.tools.some(
        (tool) => tool.name === 'dynamic__fresh',
      ),
    );
    const fresh = await callThroughModel(server, 'dynamic__fresh', {});
    expect(fresh).toMatchObject({ output: 'fresh ran', is_error: false });
    // Its stderr is in the server's logs.
    expect(
      server.logs.some(
        (line) => line.includes('dynamic server ready') && line.includes('"mcpServer":"dynamic"'),
      ),
    ).toBe(true);
  });

  it('the filesystem server works on a temp directory, and a failing call is an error result', async () => {
    const directory = join(server.directories.root, 'fs-root');
    await mkdir(directory, { recursive: true });
    await writeFile(join(directory, 'notes.txt'), 'MCP filesystem works');
    await server.call('POST', '/api/mcp/servers', {
      name: 'fs',
      transport: { type: 'stdio', command: process.execPath, args: [FILESYSTEM_SERVER, directory] },
    });
    const read = await callThroughModel(server, 'fs__read_text_file', { path: join(directory, 'notes.txt') });
    expect(read).toMatchObject({ output: 'MCP filesystem works', is_error: false });
    const missing = await callThroughModel(server, 'fs__read_text_file', {
      path: join(directory, 'missing.txt'),
    });
    expect(missing.is_error).toBe(true);
    expect(missing.output).toMatch(/ENOENT|no such file/i);
    const outside = await callThroughModel(server, 'fs__read_text_file', { path: '/etc/hostname' });
    expect(outside.is_error).toBe(true);
  });

  it('the everything server over Streamable HTTP, with a secret header, serves its tools', async () => {
    const remote = await startEverythingOverHttp();
    try {
      const created = await server.call<McpServer>('POST', '/api/mcp/servers', {
        name: 'remote',
        transport: { type: 'http', url: remote.url },
        secret_headers: { Authorization: 'Bearer remote-secret-token-1234' },
      });
      const result = await callThroughModel(server, 'remote__echo', { message: 'over HTTP' });
      expect(result).toMatchObject({ output: 'Echo: over HTTP', is_error: false });
      const connected = await server.call<McpServer>('POST', `/api/mcp/servers/${created.id}/connect`);
      expect(connected.status).toMatchObject({ state: 'connected' });
      expect(JSON.stringify(connected)).not.toContain('remote-secret-token-1234');
      await server.call('DELETE', `/api/mcp/servers/${created.id}`);
    } finally {
      await remote.close();
    }
  });

  it('a server that cannot start reports failed and why, and the conversation goes on without it', async () => {
    const broken = await server.call<McpServer>('POST', '/api/mcp/servers', {
      name: 'broken',
      transport: { type: 'stdio', command: join(server.directories.root, 'no-such-binary') },
    });
    const result = await callThroughModel(server, 'everything__echo', { message: 'unaffected' });
    expect(result.output).toBe('Echo: unaffected');
    const status = (await server.call<McpServer>('GET', `/api/mcp/servers/${broken.id}`)).status;
    expect(status.state).toBe('failed');
    expect(status.error).toContain('ENOENT');
    await server.call('DELETE', `/api/mcp/servers/${broken.id}`);
  });

  it('the mcp.enabled setting turns every MCP tool off, and back on (a setting on the settings page)', async () => {
    const schema = await server.call<{ sections: { id: string }[]; settings: { key: string }[] }>(
      'GET',
      '/api/settings/schema',
    );
    expect(schema.sections.map((section) => section.id)).toContain('mcp');
    expect(schema.settings.map((setting) => setting.key)).toEqual(
      expect.arrayContaining(['mcp.enabled', 'mcp.startup_wait_ms', 'mcp.idle_timeout_minutes']),
    );
    await server.call('PUT', '/api/settings/values', { layer: 'user', values: { 'mcp.enabled': false } });
    const off = await callThroughModel(server, 'everything__echo', { message: 'off' });
    expect(off.is_error).toBe(true);
    expect(off.output).toContain('TOOL_NOT_FOUND');
    await server.call('DELETE', '/api/settings/values/mcp.enabled?layer=user');
    const on = await callThroughModel(server, 'everything__echo', { message: 'on' });
    expect(on.output).toBe('Echo: on');
  });

  it('stopping the workbench stops every server process, children of wrappers included', async () => {
    await callThroughModel(server, 'everything__echo', { message: 'last' });
    const pids = await recordedPids(log);
    expect(isAlive(pids.server) && isAlive(pids.recorder)).toBe(true);
    await server.stop();
    expect(isAlive(pids.recorder)).toBe(false);
    await eventually(() => !isAlive(pids.server));
    await server.restart();
  });
});
