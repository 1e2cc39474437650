import { fakeTextReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../src/errors/index.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';

interface OpenApiDocument {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
}

interface ErrorBody {
  error: { code: string; message: string; details?: { reason?: string } };
}

const NUL = '\u0000';
const BODY_METHODS = new Set(['post', 'put', 'patch']);

function expectNulRefused(response: { status: number; body: unknown }, label: string): void {
  expect(response.status, label).toBe(400);
  const body = response.body as ErrorBody;
  expect(body.error.code, label).toBe('INVALID_INPUT');
  expect(body.error.details?.reason, label).toBe('nul_character');
}

describe.each(DATABASE_KINDS)('a NUL character (U+0000) in any request on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let routes: { method: string; path: string; json: boolean }[];
  let projectId: string;
  let conversationId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
    const document = await server.call<OpenApiDocument>('GET', '/api/openapi.json');
    routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({
        method,
        path,
        json: operation.requestBody?.content?.['application/json'] !== undefined,
      })),
    );
    projectId = (await server.call<{ id: string }>('POST', '/api/projects', { name: 'Kept' })).id;
    conversationId = (
      await server.call<{ id: string }>('POST', '/api/conversations', {
        title: 'Kept',
        project_id: projectId,
      })
    ).id;
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('%00 as any id in any route is INVALID_INPUT, never a 500', async () => {
    const withParameters = routes.filter((route) => route.path.includes('{'));
    expect(withParameters.length).toBeGreaterThan(20);
    for (const route of withParameters) {
      const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
      for (const name of names) {
        const path = route.path.replace(/\{(\w+)\}/g, (_all, parameter: string) =>
          parameter === name ? 'a%00b' : 'x',
        );
        const label = `${route.method.toUpperCase()} ${path}`;
        const response = await server.request(route.method.toUpperCase(), `/api${path}`, {
          ...(BODY_METHODS.has(route.method) ? { body: {} } : {}),
        });
        expectNulRefused(response, label);
      }
    }
  });

  it('?q=%00 (or any query parameter holding NUL) is INVALID_INPUT on every GET route', async () => {
    for (const route of routes.filter((candidate) => candidate.method === 'get')) {
      const path = route.path.replace(/\{(\w+)\}/g, conversationId);
      for (const query of ['q=%00', 'cursor=a%00', 'limit=1%00', 'project_id=%00']) {
        expectNulRefused(await server.request('GET', `/api${path}?${query}`), `GET ${path}?${query}`);
      }
    }
  });

  it('a JSON body with NUL in any string, nested or as a key, is INVALID_INPUT on every route that takes one', async () => {
    const bodies: unknown[] = [
      { text: `hello${NUL}world`, name: `a${NUL}`, title: `t${NUL}` },
      { skills: [{ name: 'x', arguments: `a${NUL}` }] },
      { [`key${NUL}`]: 'value' },
    ];
    const jsonRoutes = routes.filter((route) => route.json);
    expect(jsonRoutes.length).toBeGreaterThan(10);
    for (const route of jsonRoutes) {
      const path = route.path.replace(/\{(\w+)\}/g, (_all, parameter: string) =>
        parameter === 'id' && route.path.startsWith('/projects') ? projectId : conversationId,
      );
      for (const body of bodies) {
        expectNulRefused(
          await server.request(route.method.toUpperCase(), `/api${path}`, { body }),
          `${route.method.toUpperCase()} ${path} ${JSON.stringify(body)}`,
        );
      }
    }
  });

  it('sending a message, naming a project or titling a conversation with NUL is refused and changes nothing', async () => {
    const message = await server.request('POST', `/api/conversations/${conversationId}/messages`, {
      body: { text: `before${NUL}after` },
    });
    expectNulRefused(message, 'message');
    expect((message.body as ErrorBody).error.message).toContain("'text'");
    expectNulRefused(
      await server.request('PATCH', `/api/projects/${projectId}`, { body: { name: `P${NUL}` } }),
      'project name',
    );
    expectNulRefused(
      await server.request('POST', '/api/projects', { body: { name: `P${NUL}` } }),
      'new project',
    );
    expectNulRefused(
      await server.request('PATCH', `/api/conversations/${conversationId}`, { body: { title: `T${NUL}` } }),
      'conversation title',
    );
    expectNulRefused(
      await server.request('POST', '/api/conversations', { body: { title: `T${NUL}` } }),
      'new conversation',
    );
    const view = await server.call<{ conversation: { title: string }; messages: unknown[] }>(
      'GET',
      `/api/conversations/${conversationId}`,
    );
    expect(view.conversation.title).toBe('Kept');
    expect(view.messages).toEqual([]);
    expect((await server.call<{ name: string }>('GET', `/api/projects/${projectId}`)).name).toBe('Kept');
  });

  it('an upload whose name or form fields hold NUL is INVALID_INPUT', async () => {
    const named = new FormData();
    named.set('file', new File(['hi'], `a${NUL}.txt`, { type: 'text/plain' }));
    expectNulRefused(await server.request('POST', '/api/uploads', { body: named }), 'file name');
    const field = new FormData();
    field.set('file', new File(['hi'], 'a.txt', { type: 'text/plain' }));
    field.set('conversation_id', `c${NUL}`);
    expectNulRefused(await server.request('POST', '/api/uploads', { body: field }), 'conversation_id');
  });

  it('a model reply holding NUL is stored whole and its run completes (the event log keeps it as JSON)', async () => {
    server.fake.push(fakeTextReply(`Title${NUL} here`, ' and more'));
    const { conversationId: id, runId } = await sendFirstMessage(server, 'name this');
    const view = await server.settled(id, runId);
    expect(view.in_flight_run).toBeNull();
    expect(view.runs.at(-1)?.status).toBe('completed');
    expect(JSON.stringify(view.messages.at(-1))).toContain('Title\\u0000 here and more');
  });

  it('a database encoding error is INVALID_INPUT (400), never INTERNAL_ERROR', async () => {
    // Past the HTTP edge, straight to the database: PostgreSQL refuses NUL in text (22021).
    const stored = await server.server.services.conversations.get(`x${NUL}y`).then(
      () => 'found',
      (error: unknown) => ApiError.fromUnknown(error),
    );
    expect(stored).toBeInstanceOf(ApiError);
    expect((stored as ApiError).status).toBeLessThan(500);
    const pgError = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: '22021',
    });
    expect(ApiError.fromUnknown(pgError)).toMatchObject({
      code: 'INVALID_INPUT',
      status: 400,
      details: { reason: 'database_encoding', sqlstate: '22021' },
    });
  });
});
