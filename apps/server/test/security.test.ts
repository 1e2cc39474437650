import { mkdir, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fakeTextReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/databases.ts';
import { rawRequest } from './support/raw-http.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';

/** Token handling, Host/Origin checks, headers and paths do not depend on the database: SQLite. */
describe('security at the HTTP edge', () => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    server = await startTestServer({
      database,
      server: { maxJsonBytes: 64 * 1024, maxUploadBytes: 1024 * 1024 },
    });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('the API and the event stream refuse a request without a token, with a wrong token, or with a malformed header', async () => {
    const { id } = await server.call<{ id: string }>('POST', '/api/conversations', {});
    for (const path of [
      '/api/health',
      '/api/conversations',
      `/api/conversations/${id}/events`,
      '/api/openapi.json',
    ]) {
      expect(await server.request('GET', path, { token: null })).toMatchObject({
        status: 401,
        body: { error: { code: 'UNAUTHORIZED' } },
      });
      expect((await server.request('GET', path, { token: 'not-the-token' })).status).toBe(401);
      expect((await server.request('GET', path, { token: `${server.token}x` })).status).toBe(401);
      expect(
        (
          await server.request('GET', path, {
            token: null,
            headers: { authorization: `Basic ${server.token}` },
          })
        ).status,
      ).toBe(401);
    }
    const posted = await server.request('POST', '/api/conversations', { token: null, body: {} });
    expect(posted.status).toBe(401);
  });

  it('the login URL sets an HttpOnly, SameSite=Strict cookie and redirects without the token; the cookie then signs requests', async () => {
    const response = await server.request('GET', `/?token=${server.token}`, { token: null });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/youyou_token=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const cookieHeader = cookie.split(';')[0] as string;
    expect(
      (await server.request('GET', '/api/health', { token: null, headers: { cookie: cookieHeader } })).status,
    ).toBe(200);
    expect((await server.request('GET', '/?token=wrong', { token: null })).status).toBe(401);
  });

  it('a foreign Origin and a cross-site fetch are refused, even with the right token', async () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1:1', 'null']) {
      expect(
        await server.request('POST', '/api/conversations', { body: {}, headers: { origin } }),
      ).toMatchObject({
        status: 403,
        body: { error: { code: 'ORIGIN_NOT_ALLOWED' } },
      });
    }
    expect(
      (await server.request('GET', '/api/health', { headers: { 'sec-fetch-site': 'cross-site' } })).status,
    ).toBe(403);
    const own = new URL(server.url).origin;
    expect(
      (await server.request('POST', '/api/conversations', { body: {}, headers: { origin: own } })).status,
    ).toBe(201);
  });

  it('a Host header the server does not answer to (DNS rebinding) is refused', async () => {
    const port = new URL(server.url).port;
    const withHost = (host: string) =>
      rawRequest(`${server.url}/api/health`, { headers: { host, authorization: `Bearer ${server.token}` } });
    for (const host of [
      `evil.example:${port}`,
      `attacker.localhost.evil:${port}`,
      `127.0.0.1.nip.io:${port}`,
    ]) {
      const response = await withHost(host);
      expect(response.status, host).toBe(403);
      expect(response.json()).toMatchObject({ error: { code: 'HOST_NOT_ALLOWED' } });
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `192.168.1.20:${port}`]) {
      expect((await withHost(host)).status, host).toBe(200);
    }
  });

  it('responses carry a Content-Security-Policy and the other security headers', async () => {
    const page = await server.request('GET', '/', { token: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const api = await server.request('GET', '/api/health');
    expect(api.headers.get('content-security-policy')).toContain("default-src 'none'");
    for (const response of [page, api]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    }
    expect(api.headers.get('cache-control')).toBe('no-store');
  });

  it('bodies over the limit are PAYLOAD_TOO_LARGE; uploads have their own limit and accepted types', async () => {
    const big = await server.request('POST', '/api/conversations', {
      body: { title: 'x'.repeat(100 * 1024) },
    });
    expect(big).toMatchObject({ status: 413, body: { error: { code: 'PAYLOAD_TOO_LARGE' } } });
    const upload = async (content: Uint8Array | string, type: string, name: string) => {
      const form = new FormData();
      form.set('file', new Blob([content], { type }), name);
      return server.request('POST', '/api/uploads', { body: form });
    };
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(2 * 1024 * 1024)], { type: 'text/plain' }), 'huge.txt');
    const encoded = new Response(form);
    const huge = await rawRequest(`${server.url}/api/uploads`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.token}`,
        'content-type': encoded.headers.get('content-type') as string,
      },
      body: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(huge.status).toBe(413);
    expect(huge.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect((await upload('<svg onload="alert(1)"/>', 'image/svg+xml', 'x.svg')).body).toMatchObject({
      error: { code: 'UNSUPPORTED_MEDIA_TYPE' },
    });
    expect((await upload('alert(1)', 'text/javascript', 'x.js')).status).toBe(415);
    // HTML is a document: accepted, and served back only as an inert attachment.
    const page = await upload('<p>hello</p><script>alert(1)</script>', 'text/html', 'x.html');
    expect(page.status).toBe(201);
    const served = await server.request('GET', `/api/uploads/${(page.body as { id: string }).id}/content`);
    expect(served.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(
      (await upload(new Uint8Array([0x4d, 0x5a, 0, 1, 2]), 'application/x-msdownload', 'x.exe')).status,
    ).toBe(415);
    expect((await upload('not really a png', 'image/png', 'fake.png')).body).toMatchObject({
      error: { code: 'UNSUPPORTED_MEDIA_TYPE' },
    });
    expect((await upload('plain words', 'text/plain', 'ok.txt')).status).toBe(201);
  });

  it('an upload named like a path is refused; stored files are named by id', async () => {
    for (const name of [
      '../../etc/passwd',
      '..\\\\windows\\\\system.ini',
      'a/b.txt',
      '..',
      'line\nbreak.txt',
    ]) {
      const form = new FormData();
      form.set('file', new Blob(['x'], { type: 'text/plain' }), name);
      const response = await server.request('POST', '/api/uploads', { body: form });
      expect(response.status, name).toBeGreaterThanOrEqual(400);
      expect(['PATH_NOT_ALLOWED', 'INVALID_INPUT']).toContain(
        (response.body as { error: { code: string } }).error.code,
      );
    }
    const unknown = await server.request('GET', '/api/uploads/..%2F..%2Ftoken/content');
    expect(unknown.status).toBe(404);
  });

  it('project directories outside the allowed roots, relative, through a symlink out, or over the data directory are refused', async () => {
    const inside = join(server.directories.root, 'projects', 'inside');
    await mkdir(inside, { recursive: true });
    await symlink('/etc', join(server.directories.root, 'projects', 'escape'));
    const attempts: [string, string][] = [
      ['/etc', 'PATH_NOT_ALLOWED'],
      [`${inside}/../../../../etc`, 'PATH_NOT_ALLOWED'],
      ['projects/inside', 'PATH_NOT_ALLOWED'],
      [join(server.directories.root, 'projects', 'escape'), 'PATH_NOT_ALLOWED'],
      [server.directories.dataDirectory, 'PATH_NOT_ALLOWED'],
      [server.directories.home, 'PATH_NOT_ALLOWED'],
      [join(server.directories.root, 'missing'), 'INVALID_INPUT'],
    ];
    for (const [directory, code] of attempts) {
      const response = await server.request('POST', '/api/projects', { body: { name: 'x', directory } });
      expect(response.body, directory).toMatchObject({ error: { code } });
    }
    const outside = await server.request('POST', '/api/projects', { body: { name: 'x', directory: '/etc' } });
    expect((outside.body as { error: { message: string } }).error.message).toContain('--workspace-root /');
    const ok = await server.call<{ id: string; directory: string }>('POST', '/api/projects', {
      name: 'ok',
      directory: inside,
    });
    expect(ok.directory).toBe(inside);
    const moved = await server.request('PATCH', `/api/projects/${ok.id}`, { body: { directory: '/' } });
    expect(moved.body).toMatchObject({ error: { code: 'PATH_NOT_ALLOWED' } });
  });

  it('the token file is private and neither the token nor a provider key ever reaches the log or a response', async () => {
    expect((await stat(join(server.directories.dataDirectory, 'token'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(server.directories.dataDirectory, 'secret.key'))).mode & 0o777).toBe(0o600);
    await server.request('GET', `/?token=${server.token}`, { token: null });
    await server.request('GET', '/api/health', { token: `${server.token}-wrong` });
    server.fake.push(fakeTextReply('ok'));
    const { conversationId, runId } = await sendFirstMessage(server, 'hello');
    await server.settled(conversationId, runId);
    const providers = await server.request('GET', '/api/providers');
    expect(JSON.stringify(providers.body)).not.toContain('sk-fake-key-for-tests-0001');
    expect(providers.body).toMatchObject({ providers: [{ has_api_key: true }] });
    const logs = server.logs.join('');
    expect(logs).toContain('"path":"/"');
    expect(logs).not.toContain(server.token);
    expect(logs).not.toContain('sk-fake-key-for-tests-0001');
  });
});
