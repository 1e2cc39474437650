import { mkdir, readFile, symlink, writeFile, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import {
  fakeAskUserReply,
  fakeReplyAfterToolResult,
  fakeTextReply,
  fakeToolCallReply,
  fakeUpdatePlanReply,
  fakeUpdateTodosReply,
} from '@youyou/testing';
import type { HitlCardView, PlanboardView, ToolAuditRecord, ToolInfo } from '@youyou/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationMessage } from '@youyou/contracts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { waitingCard } from './support/hitl.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

function toolOutput(messages: readonly ConversationMessage[], name: string): string {
  const part = messages
    .at(-1)
    ?.parts.findLast((item) => item.type === 'tool_result' && item.tool_name === name);
  return part?.type === 'tool_result' ? part.output : '';
}

const WRITE_NOTE = `---
version: 1
name: write_note
mutating: true
parameters:
  - name: text
    type: string
    required: true
execution:
  command: ./run.sh
---
Appends a note to notes.txt in the tool's folder.
`;

describe.each(DATABASE_KINDS)('workbench tools, confirmation and planboard on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let project: { id: string; directory: string };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database, server: { mutatingToolPolicy: 'confirm' } });
    const directory = join(server.directories.root, 'project');
    await mkdir(join(directory, 'src', 'deep'), { recursive: true });
    await mkdir(join(directory, 'build'), { recursive: true });
    await writeFile(join(directory, '.gitignore'), 'build/\n*.log\n');
    await writeFile(join(directory, 'README.md'), '# Demo\nThe needle is here.\n');
    await writeFile(join(directory, 'src', 'index.ts'), 'export const needle = 1;\n// more below\n');
    await writeFile(join(directory, 'src', 'deep', 'notes.md'), 'line one\nNeedle again\nline three\n');
    await writeFile(join(directory, 'build', 'out.js'), 'needle in ignored build\n');
    await writeFile(join(directory, 'debug.log'), 'needle in an ignored log\n');
    await writeFile(join(server.directories.root, 'secret.txt'), 'the secret outside\n');
    await symlink(join(server.directories.root, 'secret.txt'), join(directory, 'escape.txt'));
    const created = await server.call<{ id: string }>('POST', '/api/projects', { name: 'Demo', directory });
    project = { id: created.id, directory };
    const tool = join(server.directories.home, 'tools', 'write_note');
    await mkdir(tool, { recursive: true });
    await writeFile(join(tool, 'index.md'), WRITE_NOTE);
    await writeFile(join(tool, 'notes.txt'), '');
    await writeFile(
      join(tool, 'run.sh'),
      `#!/bin/sh\ncat >> '${join(tool, 'notes.txt')}'\necho "note saved"\n`,
    );
    await chmod(join(tool, 'run.sh'), 0o755);
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  async function turn(
    text: string,
    replies: Parameters<TestServer['fake']['push']>,
    conversationId?: string,
  ) {
    server.fake.push(...replies);
    const id =
      conversationId ??
      (await server.call<{ id: string }>('POST', '/api/conversations', { project_id: project.id })).id;
    const sent = await server.call<{ run: { id: string } }>('POST', `/api/conversations/${id}/messages`, {
      text,
    });
    return { conversationId: id, runId: sent.run.id };
  }

  it('the model is offered the built-in tools, with JSON Schemas', async () => {
    const { conversationId, runId } = await turn('hi', [fakeTextReply('hello')]);
    await server.settled(conversationId, runId);
    const tools = (
      server.fake.chatRequests.at(-1)?.body as { tools: { function: { name: string; parameters: object } }[] }
    ).tools;
    const names = tools.map((tool) => tool.function.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'read_file',
        'list_files',
        'search_files',
        'search_history',
        'current_time',
        'ask_user',
        'update_plan',
        'update_todos',
        'write_note',
      ]),
    );
    const listed = await server.call<{ tools: ToolInfo[] }>('GET', '/api/tools');
    expect(listed.tools.find((tool) => tool.name === 'read_file')).toMatchObject({
      source: 'builtin',
      mutating: false,
      policy: 'auto',
      enabled: true,
    });
    expect(listed.tools.find((tool) => tool.name === 'write_note')).toMatchObject({
      source: 'global',
      mutating: true,
      policy: 'confirm',
    });
  });

  it('read_file reads project files with line numbers and refuses a symlink out of the project (PATH_NOT_ALLOWED)', async () => {
    const { conversationId, runId } = await turn('read', [
      fakeToolCallReply('read_file', { path: 'src/index.ts' }),
      fakeToolCallReply('read_file', { path: 'escape.txt' }),
      fakeToolCallReply('read_file', { path: '../secret.txt' }),
      fakeTextReply('done'),
    ]);
    const view = await server.settled(conversationId, runId);
    const results = view.messages.at(-1)?.parts.filter((part) => part.type === 'tool_result') ?? [];
    expect(results[0]).toMatchObject({ is_error: false });
    expect(results[0]?.type === 'tool_result' && results[0].output).toContain('1  export const needle = 1;');
    for (const refused of results.slice(1)) {
      expect(refused).toMatchObject({ is_error: true });
      expect(refused.type === 'tool_result' && refused.output).toContain('PATH_NOT_ALLOWED');
      expect(refused.type === 'tool_result' && refused.output).not.toContain('the secret outside');
    }
  });

  it('read_file shows a PNG of the project to a model that takes images: a text line in the result, the image in the next request', async () => {
    const png = Buffer.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
    ]);
    await writeFile(join(project.directory, 'diagram.png'), png);
    const { conversationId, runId } = await turn('look at the diagram', [
      fakeToolCallReply('read_file', { path: 'diagram.png' }),
      fakeTextReply('a diagram'),
    ]);
    const view = await server.settled(conversationId, runId);
    expect(toolOutput(view.messages, 'read_file')).toBe('diagram.png — [image: image/png, 16 B]');
    const body = server.fake.chatRequests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: expect.stringContaining('(read_file)') as unknown },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
      ],
    });
  });

  it('list_files honours .gitignore; search_files finds matches outside ignored files, case-insensitively, with context', async () => {
    const { conversationId, runId } = await turn('look', [
      fakeToolCallReply('list_files', {}),
      fakeToolCallReply('search_files', { pattern: 'needle', context_lines: 1 }),
      fakeToolCallReply('search_files', { pattern: 'more below|line t', regex: true, glob: '*.md' }),
      fakeTextReply('done'),
    ]);
    const view = await server.settled(conversationId, runId);
    const results = (view.messages.at(-1)?.parts ?? [])
      .filter((part) => part.type === 'tool_result')
      .map((part) => (part.type === 'tool_result' ? part.output : ''));
    expect(results[0]).toContain('src/deep/notes.md');
    expect(results[0]).toContain('README.md');
    expect(results[0]).not.toContain('build/');
    expect(results[0]).not.toContain('debug.log');
    expect(results[1]).toContain('README.md:2:The needle is here.');
    expect(results[1]).toContain('src/deep/notes.md:2:Needle again');
    expect(results[1]).toContain('src/deep/notes.md-1-line one');
    expect(results[1]).not.toContain('ignored');
    expect(results[2]).toContain('src/deep/notes.md:3:line three');
    expect(results[2]).not.toContain('index.ts');
  });

  it('search_history finds earlier messages of the conversation and of the project, with links', async () => {
    const first = await turn('Remember the codeword 蓝色海豚', [fakeTextReply('I will remember 蓝色海豚.')]);
    await server.settled(first.conversationId, first.runId);
    const second = await turn(
      'what was it?',
      [
        fakeToolCallReply('search_history', { query: '蓝色海豚' }),
        fakeToolCallReply('search_history', { query: '蓝色海豚', scope: 'project' }),
        fakeTextReply('found'),
      ],
      first.conversationId,
    );
    const view = await server.settled(second.conversationId, second.runId);
    const [inConversation, inProject] = (view.messages.at(-1)?.parts ?? [])
      .filter((part) => part.type === 'tool_result')
      .map((part) => (part.type === 'tool_result' ? part.output : ''));
    expect(inConversation).toContain('蓝色海豚');
    expect(inConversation).toContain(`#/c/${first.conversationId}/m/${first.runId}`);
    expect(inProject).toContain('蓝色海豚');
    const other = await turn('elsewhere', [
      fakeToolCallReply('search_history', { query: '蓝色海豚', scope: 'project' }),
      fakeTextReply('ok'),
    ]);
    const otherView = await server.settled(other.conversationId, other.runId);
    expect(toolOutput(otherView.messages, 'search_history')).toContain(first.conversationId);
  });

  it("current_time answers in the user's time zone", async () => {
    await server.call('PUT', '/api/time-zone', { time_zone: 'Asia/Shanghai' });
    const bad = await server.request<{ error: { code: string } }>('PUT', '/api/time-zone', {
      body: { time_zone: 'Mars/Base' },
    });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'INVALID_INPUT']);
    const { conversationId, runId } = await turn('time?', [
      fakeToolCallReply('current_time', {}),
      fakeTextReply('noon'),
    ]);
    const view = await server.settled(conversationId, runId);
    expect(toolOutput(view.messages, 'current_time')).toMatch(/in Asia\/Shanghai \(UTC\+08:00\)/);
  });

  it('a disabled tool is not offered to the model; with every tool disabled the agent is the plain chat', async () => {
    await server.call('PUT', '/api/tools/read_file', { enabled: false });
    const all = await server.call<{ tools: ToolInfo[] }>('GET', '/api/tools');
    try {
      const { conversationId, runId } = await turn('hi', [fakeTextReply('hello')]);
      await server.settled(conversationId, runId);
      let names =
        (server.fake.chatRequests.at(-1)?.body as { tools?: { function: { name: string } }[] }).tools?.map(
          (tool) => tool.function.name,
        ) ?? [];
      expect(names).not.toContain('read_file');
      for (const tool of all.tools) await server.call('PUT', `/api/tools/${tool.name}`, { enabled: false });
      const plain = await turn('hi', [fakeTextReply('hello')]);
      await server.settled(plain.conversationId, plain.runId);
      names =
        (server.fake.chatRequests.at(-1)?.body as { tools?: { function: { name: string } }[] }).tools?.map(
          (tool) => tool.function.name,
        ) ?? [];
      expect(names).toEqual([]);
    } finally {
      for (const tool of all.tools) await server.call('PUT', `/api/tools/${tool.name}`, { enabled: null });
    }
    const unknown = await server.request<{ error: { code: string } }>('PUT', '/api/tools/no_such_tool', {
      body: { enabled: false },
    });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'TOOL_NOT_FOUND']);
    const badPolicy = await server.request<{ error: { code: string } }>('PUT', '/api/tools/read_file', {
      body: { policy: 'sometimes' },
    });
    expect(badPolicy.status).toBe(400);
  });

  it('a mutating tool raises a confirm card with its description and readable arguments; allowed, it runs; the audit says the user decided', async () => {
    const { conversationId, runId } = await turn('note it', [
      fakeToolCallReply('write_note', { text: 'first note' }),
      fakeReplyAfterToolResult((result) => fakeTextReply(`Tool said: ${result}`)),
    ]);
    const card = await waitingCard(server, conversationId);
    expect(card.card).toMatchObject({
      kind: 'confirm',
      confirmation: {
        tool_name: 'write_note',
        description: "Appends a note to notes.txt in the tool's folder.",
        mutating: true,
        arguments: [{ name: 'text', value: 'first note' }],
      },
    });
    expect((await server.call<{ status: string }>('GET', `/api/runs/${runId}`)).status).toBe('waiting_hitl');
    await server.call('POST', `/api/conversations/${conversationId}/cards/${card.card.id}/answer`, {
      answer: { type: 'confirm', confirmed: true, scope: 'once' },
    });
    const view = await server.settled(conversationId, runId);
    expect(toolOutput(view.messages, 'write_note')).toContain('note saved');
    expect(
      await readFile(join(server.directories.home, 'tools', 'write_note', 'notes.txt'), 'utf8'),
    ).toContain('first note');
    const { calls } = await server.call<{ calls: ToolAuditRecord[] }>(
      'GET',
      `/api/conversations/${conversationId}/tool-calls`,
    );
    expect(calls[0]).toMatchObject({
      tool_name: 'write_note',
      outcome: 'success',
      policy: 'confirm',
      decided_by: 'user',
      card_id: card.card.id,
      arguments_summary: 'text="first note"',
    });
    const byProject = await server.call<{ calls: ToolAuditRecord[] }>(
      'GET',
      `/api/projects/${project.id}/tool-calls?tool_name=write_note`,
    );
    expect(byProject.calls.map((call) => call.call_id)).toContain(calls[0]?.call_id);
  });

  it('denied, the call does not run and the model is told why', async () => {
    const { conversationId, runId } = await turn('note it', [
      fakeToolCallReply('write_note', { text: 'never written' }),
      fakeReplyAfterToolResult((result) => fakeTextReply(`Tool said: ${result}`)),
    ]);
    const card = await waitingCard(server, conversationId);
    await server.call('POST', `/api/conversations/${conversationId}/cards/${card.card.id}/answer`, {
      answer: { type: 'confirm', confirmed: false, reason: 'not now, please' },
    });
    const view = await server.settled(conversationId, runId);
    expect(toolOutput(view.messages, 'write_note')).toContain('The user denied this call: not now, please');
    expect(
      await readFile(join(server.directories.home, 'tools', 'write_note', 'notes.txt'), 'utf8'),
    ).not.toContain('never written');
    const { calls } = await server.call<{ calls: ToolAuditRecord[] }>(
      'GET',
      `/api/conversations/${conversationId}/tool-calls`,
    );
    expect(calls[0]).toMatchObject({ outcome: 'denied', decided_by: 'user' });
  });

  it('"allow for this conversation" runs later calls without asking; a deny policy refuses with the reason', async () => {
    const { conversationId, runId } = await turn('note twice', [
      fakeToolCallReply('write_note', { text: 'a' }),
      fakeToolCallReply('write_note', { text: 'b' }),
      fakeTextReply('both saved'),
    ]);
    const card = await waitingCard(server, conversationId);
    await server.call('POST', `/api/conversations/${conversationId}/cards/${card.card.id}/answer`, {
      answer: { type: 'confirm', confirmed: true, scope: 'conversation' },
    });
    await server.settled(conversationId, runId);
    const cards = await server.call<{ cards: HitlCardView[] }>(
      'GET',
      `/api/conversations/${conversationId}/cards`,
    );
    expect(cards.cards).toHaveLength(1);
    const { calls } = await server.call<{ calls: ToolAuditRecord[] }>(
      'GET',
      `/api/conversations/${conversationId}/tool-calls`,
    );
    expect(calls.map((call) => call.decided_by)).toEqual(['conversation_grant', 'user']);
    expect(
      (await server.call<{ tools: string[] }>('GET', `/api/conversations/${conversationId}/tool-grants`))
        .tools,
    ).toEqual(['write_note']);

    await server.call('PUT', '/api/tools/read_file', { policy: 'deny' });
    const denied = await turn(
      'read',
      [fakeToolCallReply('read_file', { path: 'README.md' }), fakeTextReply('ok')],
      conversationId,
    );
    const view = await server.settled(conversationId, denied.runId);
    expect(toolOutput(view.messages, 'read_file')).toContain(
      "The workbench's policy for 'read_file' is deny",
    );
    await server.call('PUT', '/api/tools/read_file', { policy: null });
  });

  it('update_plan and update_todos publish versioned whole lists; a user-ticked todo reaches the model at its next step', async () => {
    const { conversationId, runId } = await turn('plan it', [
      fakeUpdatePlanReply([
        { id: 'a', title: 'Read the code', status: 'in_progress' },
        { id: 'b', title: 'Write the fix', status: 'pending' },
      ]),
      fakeUpdatePlanReply([
        { id: 'a', title: 'Read the code', status: 'in_progress' },
        { id: 'b', title: 'Write the fix', status: 'in_progress' },
      ]),
      fakeUpdateTodosReply([
        { id: 't1', text: 'Write tests' },
        { id: 't2', text: 'Update docs' },
      ]),
      fakeTextReply('planned'),
    ]);
    const view = await server.settled(conversationId, runId);
    const results = (view.messages.at(-1)?.parts ?? []).filter((part) => part.type === 'tool_result');
    expect(results[1]).toMatchObject({ is_error: true });
    expect(results[1]?.type === 'tool_result' && results[1].output).toContain(
      'at most one step may be in_progress',
    );
    const board = await server.call<PlanboardView>('GET', `/api/conversations/${conversationId}/planboard`);
    expect(board.plan).toMatchObject({
      version: 1,
      steps: [
        { id: 'a', status: 'in_progress' },
        { id: 'b', status: 'pending' },
      ],
    });
    expect(board.todos).toMatchObject({
      version: 1,
      items: [
        { id: 't1', done: false },
        { id: 't2', done: false },
      ],
    });

    const ticked = await server.call<{ version: number; updated_by: string }>(
      'PATCH',
      `/api/conversations/${conversationId}/todos/t1`,
      { done: true },
    );
    expect(ticked).toMatchObject({ version: 2, updated_by: 'user' });
    await server.call('POST', `/api/conversations/${conversationId}/todos`, { text: 'Ship it' });
    const missing = await server.request<{ error: { code: string } }>(
      'PATCH',
      `/api/conversations/${conversationId}/todos/nope`,
      { body: { done: true } },
    );
    expect([missing.status, missing.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const empty = await server.request('PATCH', `/api/conversations/${conversationId}/todos/t1`, {
      body: {},
    });
    expect(empty.status).toBe(400);

    const next = await turn('go on', [fakeTextReply('ok')], conversationId);
    await server.settled(conversationId, next.runId);
    const request = JSON.stringify(server.fake.chatRequests.at(-1)?.body);
    expect(request).toContain('The user changed the todo list');
    expect(request).toContain('ticked (marked done) \\"Write tests\\"');
    expect(request).toContain('added \\"Ship it\\"');
    // Told once: the turn after does not repeat it.
    const after = await turn('and then', [fakeTextReply('ok')], conversationId);
    await server.settled(conversationId, after.runId);
    expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).not.toContain(
      'The user changed the todo list',
    );
    const events = await server.call<{ events: { type: string; payload: { version: number } }[] }>(
      'GET',
      `/api/conversations/${conversationId}/event-log`,
    );
    expect(
      events.events.filter((event) => event.type === 'todo.update').map((event) => event.payload.version),
    ).toEqual([1, 2, 3]);
  });

  it('a todo ticked while the run works is told to the model with its next tool result', async () => {
    const { conversationId, runId } = await turn('work', [
      fakeUpdateTodosReply([{ id: 'x', text: 'Check the logs' }]),
      fakeAskUserReply({ question: 'Continue?', kind: 'confirm' }),
      fakeTextReply('done'),
    ]);
    const card = await waitingCard(server, conversationId);
    await server.call('PATCH', `/api/conversations/${conversationId}/todos/x`, { done: true });
    await server.call('POST', `/api/conversations/${conversationId}/cards/${card.card.id}/answer`, {
      answer: { type: 'confirm', confirmed: true },
    });
    await server.settled(conversationId, runId);
    expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).toContain(
      'ticked (marked done) \\"Check the logs\\"',
    );
  });
});
