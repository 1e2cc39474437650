import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors/agent-error.ts';
import type { MemoryInput } from '../../src/memory/memory-storage.ts';
import { FileMemoryStorage } from '../../src/storage/file-memory-storage.ts';
import { describeMemoryStorageContract } from '@youyou/testing/contracts';
import { createTempWorld } from '../files/helpers.ts';
import type { TempWorld } from '../files/helpers.ts';

describeMemoryStorageContract('FileMemoryStorage', async () => {
  const contractWorld = await createTempWorld();
  return { storage: new FileMemoryStorage({ home: contractWorld.home }), cleanup: contractWorld.cleanup };
});

describeMemoryStorageContract('FileMemoryStorage, each call through a fresh instance', async () => {
  const contractWorld = await createTempWorld();
  const fresh = (): FileMemoryStorage => new FileMemoryStorage({ home: contractWorld.home });
  return {
    storage: {
      load: (namespace) => fresh().load(namespace),
      upsert: (input) => fresh().upsert(input),
      delete: (id) => fresh().delete(id),
      search: (namespace, query, limit) => fresh().search(namespace, query, limit),
    },
    cleanup: contractWorld.cleanup,
  };
});

let world: TempWorld;
beforeEach(async () => {
  world = await createTempWorld();
});
afterEach(async () => {
  await world.cleanup();
});

const memory = (id: string, content: string, namespace = '/work/app', tags: string[] = []): MemoryInput => ({
  id,
  namespace,
  content,
  source: 'session-1',
  tags,
});

function clock(start = 1000): () => number {
  let now = start;
  return () => (now += 10);
}

describe('FileMemoryStorage', () => {
  it('keeps memories in {home}/memories/memories.json and reads them back in a new instance', async () => {
    const storage = new FileMemoryStorage({ home: world.home, now: clock() });
    await storage.upsert(memory('m1', 'Prefers tabs'));
    expect(storage.path).toBe(join(world.home, 'memories', 'memories.json'));
    const file = JSON.parse(await readFile(storage.path, 'utf8')) as { version: number; memories: unknown[] };
    expect(file.version).toBe(1);
    expect(await new FileMemoryStorage({ home: world.home }).load('/work/app')).toEqual([
      {
        id: 'm1',
        namespace: '/work/app',
        content: 'Prefers tabs',
        source: 'session-1',
        tags: [],
        createdAt: 1010,
        updatedAt: 1010,
      },
    ]);
  });

  it('upserts by id: same content only moves updatedAt, new content replaces it', async () => {
    const storage = new FileMemoryStorage({ home: world.home, now: clock() });
    const created = await storage.upsert(memory('m1', 'Prefers tabs'));
    const touched = await storage.upsert(memory('m1', 'Prefers tabs'));
    expect(touched).toMatchObject({ createdAt: created.createdAt, content: 'Prefers tabs' });
    expect(touched.updatedAt).toBeGreaterThan(created.updatedAt);
    const changed = await storage.upsert(memory('m1', 'Prefers spaces', '/work/app', ['style']));
    expect(changed).toMatchObject({
      createdAt: created.createdAt,
      content: 'Prefers spaces',
      tags: ['style'],
    });
    expect(await storage.load('/work/app')).toHaveLength(1);
  });

  it('separates namespaces and lists newest first', async () => {
    const storage = new FileMemoryStorage({ home: world.home, now: clock() });
    await storage.upsert(memory('a', 'one'));
    await storage.upsert(memory('b', 'two'));
    await storage.upsert(memory('c', 'elsewhere', 'global'));
    expect((await storage.load('/work/app')).map((item) => item.id)).toEqual(['b', 'a']);
    expect((await storage.load('global')).map((item) => item.id)).toEqual(['c']);
    expect(await storage.load('/nowhere')).toEqual([]);
  });

  it('searches a namespace by query words over content and tags, most matches first, with a limit', async () => {
    const storage = new FileMemoryStorage({ home: world.home, now: clock() });
    await storage.upsert(memory('a', 'Uses pnpm for installs'));
    await storage.upsert(memory('b', 'Deploys with docker compose', '/work/app', ['docker']));
    await storage.upsert(memory('c', 'Docker images are built nightly with pnpm'));
    await storage.upsert(memory('d', 'docker in another project', '/other'));
    expect((await storage.search('/work/app', 'docker pnpm', 10)).map((item) => item.id)).toEqual([
      'c',
      'b',
      'a',
    ]);
    expect((await storage.search('/work/app', 'docker', 1)).map((item) => item.id)).toEqual(['c']);
    expect((await storage.search('/work/app', '', 2)).map((item) => item.id)).toEqual(['c', 'b']);
    expect(await storage.search('/work/app', 'kubernetes', 10)).toEqual([]);
  });

  it('deletes by id; deleting a missing id is a no-op', async () => {
    const storage = new FileMemoryStorage({ home: world.home, now: clock() });
    await storage.upsert(memory('a', 'one'));
    await storage.delete('a');
    await storage.delete('missing');
    expect(await storage.load('/work/app')).toEqual([]);
  });

  it('sees changes another process made to the file', async () => {
    const first = new FileMemoryStorage({ home: world.home, now: clock() });
    const second = new FileMemoryStorage({ home: world.home, now: clock(5000) });
    await first.load('/work/app');
    await second.upsert(memory('x', 'from the other process'));
    expect((await first.load('/work/app')).map((item) => item.id)).toEqual(['x']);
  });

  it('serialises concurrent upserts so none is lost', async () => {
    const storage = new FileMemoryStorage({ home: world.home });
    await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        storage.upsert(memory(`m${String(index)}`, `fact ${String(index)}`)),
      ),
    );
    expect(await new FileMemoryStorage({ home: world.home }).load('/work/app')).toHaveLength(40);
  });

  it('never overwrites a file it cannot parse: STORAGE_ERROR until it is fixed', async () => {
    await mkdir(join(world.home, 'memories'), { recursive: true });
    const path = join(world.home, 'memories', 'memories.json');
    await writeFile(path, '{"version": 1, "memories": [{"id": 1}]}');
    const storage = new FileMemoryStorage({ home: world.home });
    await expect(storage.upsert(memory('a', 'x'))).rejects.toMatchObject({ code: 'STORAGE_ERROR' });
    await expect(storage.load('/work/app')).rejects.toMatchObject({ code: 'STORAGE_ERROR' });
    expect(await readFile(path, 'utf8')).toBe('{"version": 1, "memories": [{"id": 1}]}');
  });

  it.each([
    ['an empty id', { ...memory('', 'x') }],
    ['tags that are not strings', { ...memory('a', 'x'), tags: [1] as unknown as string[] }],
    ['content that is not text', { ...memory('a', 'x'), content: undefined as unknown as string }],
  ])('rejects %s with INVALID_INPUT', async (_label, input) => {
    const error = await Promise.resolve()
      .then(() => new FileMemoryStorage({ home: world.home }).upsert(input))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('INVALID_INPUT');
  });
});
