import type { ArchiveImportPreview, ArchiveImportResult, Project } from '@youyou/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type ApiResponse, type TestServer } from './support/test-server.ts';

describe.each(DATABASE_KINDS)('an import’s preview and its project names on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let projectId: string;
  let archive: Uint8Array;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
    projectId = (await server.call<{ id: string }>('POST', '/api/projects', { name: 'Launch' })).id;
    await server.call('POST', '/api/conversations', { project_id: projectId, title: 'Venue' });
    const response = await fetch(`${server.url}/api/projects/${projectId}/archive`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    archive = new Uint8Array(await response.arrayBuffer());
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  async function post<T>(path: string, bytes: Uint8Array): Promise<ApiResponse<T>> {
    const response = await fetch(`${server.url}/api${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/zip' },
      body: bytes,
    });
    return { status: response.status, body: (await response.json()) as T, headers: response.headers };
  }

  async function projectNames(): Promise<string[]> {
    const { projects } = await server.call<{ projects: Project[] }>('GET', '/api/projects');
    return projects.map((project) => project.name).sort();
  }

  it('the preview says what would be created and that the name is taken, and writes nothing', async () => {
    const preview = await post<ArchiveImportPreview>('/archive/import/preview', archive);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      scope: 'project',
      target_project: null,
      projects: [{ source_id: projectId, name: 'Launch', import_name: 'Launch (2)', name_taken: true }],
      conversations: [{ source_id: expect.any(String) as string, title: 'Venue' }],
      memories: 0,
    });
    expect(await projectNames()).toEqual(['Launch']);
  });

  it('asked to refuse a taken name, the import imports nothing and names the project', async () => {
    const refused = await post<{ error: { code: string; details: { projects: { name: string }[] } } }>(
      '/archive/import?on_name_conflict=refuse',
      archive,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('ARCHIVE_NAME_TAKEN');
    expect(refused.body.error.details.projects.map((project) => project.name)).toEqual(['Launch']);
    expect(await projectNames()).toEqual(['Launch']);
  });

  it('imported as a copy, the project gets the first free name; a second copy the next one', async () => {
    const first = await post<ArchiveImportResult>('/archive/import', archive);
    expect(first.status).toBe(201);
    expect(first.body.projects.map((project) => project.name)).toEqual(['Launch (2)']);
    const preview = await post<ArchiveImportPreview>('/archive/import/preview', archive);
    expect(preview.body.projects[0]?.import_name).toBe('Launch (3)');
    const second = await post<ArchiveImportResult>('/archive/import?on_name_conflict=copy', archive);
    expect(second.body.projects.map((project) => project.name)).toEqual(['Launch (3)']);
    expect(await projectNames()).toEqual(['Launch', 'Launch (2)', 'Launch (3)']);
  });

  it('a free name is kept, and into an existing project nothing is created or renamed', async () => {
    await server.call('PATCH', `/api/projects/${projectId}`, { name: 'Launch 2026' });
    const preview = await post<ArchiveImportPreview>('/archive/import/preview', archive);
    expect(preview.body.projects[0]).toMatchObject({ import_name: 'Launch', name_taken: false });
    const into = await post<ArchiveImportPreview>(`/archive/import/preview?project_id=${projectId}`, archive);
    expect(into.body).toMatchObject({
      target_project: { id: projectId, name: 'Launch 2026' },
      projects: [],
    });
    const missing = await post<{ error: { code: string } }>(
      '/archive/import/preview?project_id=no-such-project',
      archive,
    );
    expect(missing.status).toBe(404);
    const damaged = await post<{ error: { code: string } }>('/archive/import/preview', archive.slice(0, 100));
    expect(damaged.status).toBe(422);
    expect(damaged.body.error.code).toBe('ARCHIVE_INVALID');
  });
});
