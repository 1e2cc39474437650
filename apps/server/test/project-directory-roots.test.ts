import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

interface Refusal {
  error: { code: string; message: string };
}
interface Project {
  id: string;
  directory: string | null;
}

/**
 * The first-run dead end of issue 26: a project folder outside the allowed workspace roots. The
 * refusal keeps its code and tells the person how to allow the folder, and stores nothing.
 */
describe.each(DATABASE_KINDS)('a project folder outside the workspace roots on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let outside: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
    // The test server's only root is its own temp folder; this one is beside it.
    outside = await realpath(await mkdtemp(join(tmpdir(), 'youyou-outside-')));
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
    if (outside !== undefined) await rm(outside, { recursive: true, force: true });
  });

  it('creating a project there is refused with a message naming --workspace-root, and nothing is stored', async () => {
    const before = await server.call<{ projects: Project[] }>('GET', '/api/projects');
    const response = await server.request<Refusal>('POST', '/api/projects', {
      body: { name: 'elsewhere', directory: outside },
    });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('PATH_NOT_ALLOWED');
    expect(response.body.error.message).toContain(`--workspace-root ${dirname(outside)}`);
    const after = await server.call<{ projects: Project[] }>('GET', '/api/projects');
    expect(after.projects).toHaveLength(before.projects.length);
  });

  it('moving a project there is refused the same way, and its folder stays', async () => {
    const inside = join(server.directories.root, 'inside');
    await mkdir(inside, { recursive: true });
    const project = await server.call<Project>('POST', '/api/projects', {
      name: 'inside',
      directory: inside,
    });
    const response = await server.request<Refusal>('PATCH', `/api/projects/${project.id}`, {
      body: { directory: outside },
    });
    expect(response.body.error.code).toBe('PATH_NOT_ALLOWED');
    expect(response.body.error.message).toContain('--workspace-root');
    const stored = await server.call<Project>('GET', `/api/projects/${project.id}`);
    expect(stored.directory).toBe(project.directory);
  });
});
