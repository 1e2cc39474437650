import type { KnowledgeItem, KnowledgeList } from '@youyou/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnowledge, type KnowledgeService } from '../src/knowledge/index.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** Issue 32 for the knowledge index: an item a stopped server was indexing is indexed again, once. */
describe.each(DATABASE_KINDS)('knowledge items left by a stopped server on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let project: { id: string };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
    project = await server.call<{ id: string }>('POST', '/api/projects', { name: 'Harbour' });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  async function uploadNote(name: string): Promise<string> {
    const form = new FormData();
    const text = `# ${name}\n\nThe harbour crane lifts forty tonnes; note ${name} says so.`;
    form.set('file', new Blob([text], { type: 'text/markdown' }), `${name}.md`);
    form.set('project_id', project.id);
    const uploaded = await server.call<{ id: string }>('POST', '/api/uploads', form);
    return (await itemOf(uploaded.id, (item) => item.status === 'indexed')).id;
  }

  async function itemOf(sourceId: string, done: (item: KnowledgeItem) => boolean): Promise<KnowledgeItem> {
    for (let attempt = 0; attempt < 400; attempt++) {
      const list = await server.call<KnowledgeList>('GET', `/api/projects/${project.id}/knowledge`);
      const item = list.items.find((entry) => entry.source_id === sourceId || entry.id === sourceId);
      if (item !== undefined && done(item)) return item;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`knowledge item ${sourceId} did not settle`);
  }

  /** Leaves items as a server killed mid-index does: `parsing`, held by an instance that is gone. */
  async function leftByDeadServer(ids: readonly string[]): Promise<void> {
    await server.server.services.database.db
      .updateTable('knowledge_items')
      .set({ status: 'parsing', claimed_by: 'stopped-instance', claimed_at: Date.now() })
      .where('id', 'in', [...ids])
      .execute();
  }

  async function claimsOf(ids: readonly string[]) {
    return server.server.services.database.db
      .selectFrom('knowledge_items')
      .select(['id', 'status', 'attempts', 'claimed_by'])
      .where('id', 'in', [...ids])
      .orderBy('id')
      .execute();
  }

  it('an item a stopped server was indexing is indexed again with its chunks after the restart, and can be retried', async () => {
    const id = await uploadNote('restart');
    const before = await itemOf(id, () => true);
    await leftByDeadServer([id]);
    await server.stop();
    await server.restart();

    const after = await itemOf(id, (item) => item.status === 'indexed');
    expect(after.attempts).toBe(before.attempts + 1);
    expect(after.chunk_count).toBeGreaterThan(0);
    expect((await claimsOf([id]))[0]?.claimed_by).toBeNull();
    expect(server.logs.join('\n')).toMatch(/knowledge items (left by|of) a stopped server are queued again/);

    const retried = await server.call<KnowledgeItem>('POST', `/api/knowledge/${id}/retry`);
    expect(retried.status).toBe('queued');
    expect((await itemOf(id, (item) => item.status === 'indexed')).attempts).toBe(after.attempts + 1);
  });

  it('two instances on one database take each orphaned item once, and leave a live instance its items', async () => {
    const services = server.server.services;
    const ids = [await uploadNote('first'), await uploadNote('second'), await uploadNote('third')];
    const held = await uploadNote('held');
    const other: KnowledgeService = createKnowledge({
      database: services.database,
      artifacts: services.artifacts,
      providers: services.providers,
      setting: async () => null,
      logger: { warn: () => {} },
      documents: services.documents,
      instanceId: 'other-instance',
    });
    try {
      const before = new Map((await claimsOf(ids)).map((row) => [row.id, Number(row.attempts)]));
      await leftByDeadServer(ids);
      await services.database.db
        .updateTable('knowledge_items')
        .set({ status: 'queued', claimed_by: 'other-instance' })
        .where('id', '=', held)
        .execute();

      const live = new Set([services.instanceId, 'other-instance']);
      const taken = await Promise.all([services.knowledge?.recover(live), other.recover(live)]);
      expect((taken[0] ?? 0) + taken[1]).toBe(ids.length);
      await Promise.all([services.knowledge?.idle(), other.idle()]);

      for (const row of await claimsOf(ids)) {
        expect(row.status).toBe('indexed');
        expect(Number(row.attempts)).toBe((before.get(row.id) ?? 0) + 1);
        expect(row.claimed_by).toBeNull();
      }
      // The live instance's queued item is not taken by the other one.
      expect(await claimsOf([held])).toEqual([
        expect.objectContaining({ status: 'queued', claimed_by: 'other-instance' }),
      ]);
      expect(await services.knowledge?.recover(live)).toBe(0);
    } finally {
      await other.stop();
    }
  });
});
