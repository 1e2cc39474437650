import { AGENT_ERROR_CODES } from '@youyou/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ERROR_CODES, ApiError, HTTP_STATUS_BY_CODE } from '../src/errors/index.ts';
import { createTestDatabase, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

describe('the error table', () => {
  it('maps every API and agent code to an HTTP status', () => {
    for (const code of [...ALL_ERROR_CODES, ...AGENT_ERROR_CODES]) {
      expect(HTTP_STATUS_BY_CODE[code], code).toBeGreaterThanOrEqual(400);
    }
  });

  it('an unknown thrown value is INTERNAL_ERROR without its message; a component that is missing is NOT_FOUND', () => {
    expect(ApiError.fromUnknown(new Error('db password is hunter2'))).toMatchObject({
      code: 'INTERNAL_ERROR',
      message: 'The server failed to handle the request.',
      status: 500,
    });
  });
});

describe('every bad request gets a structured error with a machine code', () => {
  let database: TestDatabase;
  let server: TestServer;
  let bare: TestServer;
  let conversationId: string;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    server = await startTestServer({ database });
    bare = await startTestServer({ database, provider: false });
    conversationId = (await server.call<{ id: string }>('POST', '/api/conversations', {})).id;
  });

  afterAll(async () => {
    await server?.close();
    await bare?.close();
    await database?.drop();
  });

  const cases: [string, string, string, unknown, number, string][] = [
    ['malformed JSON', 'POST', '/api/conversations', '{"title":', 400, 'INVALID_INPUT'],
    ['a field of the wrong type', 'POST', '/api/projects', { name: 5 }, 400, 'INVALID_INPUT'],
    ['a missing field', 'POST', '/api/providers', {}, 400, 'INVALID_INPUT'],
    [
      'a provider name that is not a slug',
      'POST',
      '/api/providers',
      { name: 'Bad Name', kind: 'anthropic', base_url: 'http://127.0.0.1:1' },
      400,
      'INVALID_INPUT',
    ],
    [
      'a provider URL that is not http',
      'POST',
      '/api/providers',
      { name: 'ftp', kind: 'anthropic', base_url: 'ftp://x' },
      400,
      'INVALID_INPUT',
    ],
    [
      'a provider kind nobody knows',
      'POST',
      '/api/providers',
      { name: 'x', kind: 'gemini', base_url: 'http://127.0.0.1:1' },
      400,
      'INVALID_INPUT',
    ],
    [
      'a provider name taken',
      'POST',
      '/api/providers',
      { name: 'fake', kind: 'anthropic', base_url: 'http://127.0.0.1:1' },
      409,
      'CONFLICT',
    ],
    [
      'an unknown conversation',
      'GET',
      '/api/conversations/no-such-conversation',
      undefined,
      404,
      'NOT_FOUND',
    ],
    ['an unknown run', 'POST', '/api/runs/no-such-run/cancel', undefined, 404, 'NOT_FOUND'],
    ['an unknown project', 'POST', '/api/conversations', { project_id: 'no-such-project' }, 404, 'NOT_FOUND'],
    ['an unknown upload', 'GET', '/api/uploads/no-such-upload', undefined, 404, 'NOT_FOUND'],
    ['an unknown provider', 'PATCH', '/api/providers/no-such-provider', { enabled: false }, 404, 'NOT_FOUND'],
    ['an unknown route', 'GET', '/api/nothing-here', undefined, 404, 'NOT_FOUND'],
    [
      'a cursor this server never gave',
      'GET',
      '/api/conversations?cursor=bm9wZQ',
      undefined,
      400,
      'INVALID_INPUT',
    ],
    ['a page size out of range', 'GET', '/api/conversations?limit=100000', undefined, 400, 'INVALID_INPUT'],
    ['an unknown usage grouping', 'GET', '/api/usage?group_by=week', undefined, 400, 'INVALID_INPUT'],
    ['a setting nobody knows', 'PATCH', '/api/settings', { favourite_colour: 'blue' }, 400, 'INVALID_INPUT'],
    [
      'a default model nobody serves',
      'PUT',
      '/api/models/default',
      { model_id: 'fake/nope' },
      422,
      'MODEL_NOT_SUPPORTED',
    ],
    [
      'an unknown component kind',
      'GET',
      '/api/components/widget/x?layer=global',
      undefined,
      400,
      'INVALID_INPUT',
    ],
    [
      'a component that is not there',
      'GET',
      '/api/components/tool/ghost?layer=global',
      undefined,
      404,
      'TOOL_NOT_FOUND',
    ],
    [
      'a plugin that is not there',
      'DELETE',
      '/api/components/plugin/ghost?layer=global',
      undefined,
      404,
      'PLUGIN_NOT_FOUND',
    ],
    [
      'the project layer without a project',
      'GET',
      '/api/components/tool/x?layer=project',
      undefined,
      400,
      'INVALID_INPUT',
    ],
    [
      'a component name that is not allowed',
      'POST',
      '/api/components',
      { kind: 'tool', name: '../evil', layer: 'global', body: 'x' },
      400,
      'INVALID_INPUT',
    ],
    ['an upload without a file', 'POST', '/api/uploads', new FormData(), 400, 'INVALID_INPUT'],
  ];

  it.each(cases)('%s → %s %s', async (_name, method, path, body, status, code) => {
    const response = await server.request<{ error: Record<string, unknown> }>(method, path, {
      ...(body === undefined ? {} : { body }),
      ...(typeof body === 'string' ? { headers: { 'content-type': 'application/json' } } : {}),
    });
    expect(response.status).toBe(status);
    expect(response.body.error).toMatchObject({
      code,
      retryable: expect.any(Boolean),
      message: expect.any(String),
    });
    expect(response.body.error['request_id']).toBe(response.headers.get('x-request-id'));
    expect(JSON.stringify(response.body)).not.toContain('    at ');
  });

  it('message problems: empty, unknown upload, bad skill name, unknown model, bad cursor, a seq that is not one', async () => {
    const send = (body: unknown) =>
      server.request<{ error: { code: string } }>('POST', `/api/conversations/${conversationId}/messages`, {
        body,
      });
    expect(await send({ text: '   ' })).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_INPUT' } },
    });
    expect(await send({ text: 'x', attachments: ['no-such-upload'] })).toMatchObject({ status: 404 });
    expect(await send({ skills: [{ name: 'Not A Skill' }] })).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_INPUT' } },
    });
    expect(await send({ text: 'x', model_id: 'fake/unknown' })).toMatchObject({
      status: 422,
      body: { error: { code: 'MODEL_NOT_SUPPORTED' } },
    });
    const query = await server.request('GET', `/api/conversations/${conversationId}?before=nope`);
    expect(query.body).toMatchObject({ error: { code: 'INVALID_INPUT' } });
    const events = await server.request('GET', `/api/conversations/${conversationId}/events`, {
      headers: { 'last-event-id': 'abc' },
    });
    expect(events).toMatchObject({ status: 400, body: { error: { code: 'INVALID_INPUT' } } });
  });

  it('sending with no provider configured is NO_MODEL_PROVIDER', async () => {
    const { id } = await bare.call<{ id: string }>('POST', '/api/conversations', {});
    const response = await bare.request('POST', `/api/conversations/${id}/messages`, {
      body: { text: 'hello' },
    });
    expect(response).toMatchObject({ status: 422, body: { error: { code: 'NO_MODEL_PROVIDER' } } });
  });
});
