import type { MemoryCreated, MemoryItem, MemorySettings, SettingsSchemaResponse } from '@youyou/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** Lets the clock move on a millisecond, so "least recently used" has one answer. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

describe.each(DATABASE_KINDS)('memory capacity on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
    await server.call('PUT', '/api/memory/settings', { enabled: true });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  const remember = async (content: string, extra: Record<string, unknown> = {}) => {
    const created = await server.call<MemoryCreated>('POST', '/api/memories', {
      scope: 'user',
      content,
      ...extra,
    });
    await tick();
    return created;
  };
  const contents = async () =>
    (await server.call<{ memories: MemoryItem[] }>('GET', '/api/memories?scope=user')).memories
      .map((memory) => memory.content)
      .sort();
  const clear = () => server.call('POST', '/api/memories/clear', {});

  it('memory.capacity is a setting of the memory section (500 by default) and of the memory settings', async () => {
    const schema = await server.call<SettingsSchemaResponse>('GET', '/api/settings/schema');
    expect(schema.settings.find((setting) => setting.key === 'memory.capacity')).toMatchObject({
      section: 'memory',
      schema: { type: 'integer', minimum: 1, default: 500 },
    });
    expect((await server.call<MemorySettings>('GET', '/api/memory/settings')).capacity).toBe(500);
    const bad = await server.request<{ error: { code: string } }>('PUT', '/api/memory/settings', {
      body: { capacity: 0 },
    });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'INVALID_INPUT']);
  });

  it('a full memory evicts the least recently used memory and reports it', async () => {
    await clear();
    await server.call('PUT', '/api/memory/settings', { capacity: 2 });
    const oldest = await remember('Prefers tea');
    const second = await remember('Works in Berlin');
    // Editing the oldest makes it the most recently used.
    await server.call('PATCH', `/api/memories/${oldest.id}`, { content: 'Prefers green tea' });
    await tick();
    const third = await remember('Writes TypeScript');
    expect(third.evicted.map((memory) => memory.id)).toEqual([second.id]);
    expect(await contents()).toEqual(['Prefers green tea', 'Writes TypeScript']);
    expect(server.logs.some((line) => line.includes('memory.capacity') && line.includes(second.id))).toBe(
      true,
    );
  });

  it('an expired memory goes before a live one, and one scope does not evict another', async () => {
    await clear();
    await server.call('PUT', '/api/memory/settings', { capacity: 2 });
    const project = await server.call<{ id: string }>('POST', '/api/projects', { name: 'Capacity' });
    const live = await remember('Lives in Lisbon');
    const expired = await remember('Trip next week', { expires_at: '2020-01-01T00:00:00.000Z' });
    const inProject = await server.call<MemoryCreated>('POST', '/api/memories', {
      scope: 'project',
      project_id: project.id,
      content: 'Uses pnpm here',
    });
    expect(inProject.evicted).toEqual([]);
    const next = await remember('Speaks Portuguese');
    expect(next.evicted.map((memory) => memory.id)).toEqual([expired.id]);
    expect(await contents()).toEqual(['Lives in Lisbon', 'Speaks Portuguese']);
    expect(live.evicted).toEqual([]);
    await server.call('PUT', '/api/memory/settings', { capacity: 500 });
  });
});
