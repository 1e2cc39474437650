import type { Memory, MemoryInput, MemoryStorage } from '@youyou/agent';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** What a contract run needs: a fresh, empty storage, and a way to remove what it left behind. */
export interface MemoryStorageFixture {
  storage: MemoryStorage;
  cleanup?: () => Promise<void>;
}

const NAMESPACE = '/work/project-a';
const OTHER_NAMESPACE = '/work/project-b';

const memory = (id: string, content: string, overrides: Partial<MemoryInput> = {}): MemoryInput => ({
  id,
  namespace: NAMESPACE,
  content,
  source: 'session-1',
  tags: [],
  ...overrides,
});

/** Lets the millisecond clock move, so `updatedAt` orders writes. */
const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

const ids = (memories: readonly Memory[]): string[] => memories.map((entry) => entry.id);

/**
 * The behaviour every `MemoryStorage` must have (spec §3.8), run against each implementation.
 * Timestamps are milliseconds since the epoch. `create` returns a fresh, empty storage per test.
 *
 * @example
 * describeMemoryStorageContract('InMemoryMemoryStorage', async () => ({ storage: new InMemoryMemoryStorage() }));
 */
export function describeMemoryStorageContract(
  name: string,
  create: () => Promise<{ storage: MemoryStorage; cleanup?: () => Promise<void> }>,
): void {
  describe(`MemoryStorage contract: ${name}`, () => {
    let fixture: MemoryStorageFixture;
    let storage: MemoryStorage;

    beforeEach(async () => {
      fixture = await create();
      storage = fixture.storage;
    });

    afterEach(async () => {
      await fixture.cleanup?.();
    });

    describe('upsert', () => {
      it('a new memory is stored with every field and createdAt = updatedAt', async () => {
        const before = Date.now();
        const saved = await storage.upsert(
          memory('m1', 'Prefers tabs', { tags: ['style', 'editor'], source: 'session-9' }),
        );
        expect(saved).toMatchObject({
          id: 'm1',
          namespace: NAMESPACE,
          content: 'Prefers tabs',
          source: 'session-9',
          tags: ['style', 'editor'],
        });
        expect(saved.createdAt).toBe(saved.updatedAt);
        expect(saved.createdAt).toBeGreaterThanOrEqual(before - 1_000);
        expect(await storage.load(NAMESPACE)).toEqual([saved]);
      });

      it('the same content again only moves updatedAt', async () => {
        const first = await storage.upsert(memory('m1', 'Prefers tabs', { tags: ['style'] }));
        await tick();
        const second = await storage.upsert(memory('m1', 'Prefers tabs', { tags: ['style'] }));
        expect(second).toEqual({ ...first, updatedAt: second.updatedAt });
        expect(second.updatedAt).toBeGreaterThan(first.updatedAt);
        expect(await storage.load(NAMESPACE)).toEqual([second]);
      });

      it('different content replaces the content under the same id and keeps createdAt', async () => {
        const first = await storage.upsert(memory('m1', 'Prefers tabs'));
        await tick();
        const second = await storage.upsert(
          memory('m1', 'Prefers two spaces', { tags: ['style'], source: 'session-2' }),
        );
        expect(second).toMatchObject({
          id: 'm1',
          content: 'Prefers two spaces',
          tags: ['style'],
          source: 'session-2',
        });
        expect(second.createdAt).toBe(first.createdAt);
        expect(second.updatedAt).toBeGreaterThan(first.updatedAt);
        const loaded = await storage.load(NAMESPACE);
        expect(loaded).toEqual([second]);
      });

      it('unicode content and tags round-trip', async () => {
        await storage.upsert(memory('m1', 'Schreibt „Grüße“ 🙂 and 中文', { tags: ['語言', 'émoji'] }));
        expect((await storage.load(NAMESPACE))[0]).toMatchObject({
          content: 'Schreibt „Grüße“ 🙂 and 中文',
          tags: ['語言', 'émoji'],
        });
      });

      it('a returned or loaded memory is a copy: mutating it does not change the storage', async () => {
        const saved = await storage.upsert(memory('m1', 'Prefers tabs', { tags: ['style'] }));
        (saved.tags as string[]).push('tampered');
        saved.content = 'tampered';
        const [loaded] = await storage.load(NAMESPACE);
        (loaded!.tags as string[]).push('tampered');
        loaded!.content = 'tampered';
        expect((await storage.load(NAMESPACE))[0]).toMatchObject({
          content: 'Prefers tabs',
          tags: ['style'],
        });
      });
    });

    describe('load', () => {
      it('loads a namespace newest first by updatedAt', async () => {
        await storage.upsert(memory('old', 'first fact'));
        await tick();
        await storage.upsert(memory('middle', 'second fact'));
        await tick();
        await storage.upsert(memory('new', 'third fact'));
        expect(ids(await storage.load(NAMESPACE))).toEqual(['new', 'middle', 'old']);
        await tick();
        await storage.upsert(memory('old', 'first fact, revised'));
        expect(ids(await storage.load(NAMESPACE))).toEqual(['old', 'new', 'middle']);
      });

      it('an unknown namespace loads nothing', async () => {
        expect(await storage.load('/nowhere')).toEqual([]);
      });
    });

    describe('namespaces', () => {
      it('load and search see only their own namespace', async () => {
        await storage.upsert(memory('a1', 'Project A uses pnpm'));
        await storage.upsert(memory('b1', 'Project B uses pnpm too', { namespace: OTHER_NAMESPACE }));
        await storage.upsert(memory('g1', 'Global pnpm preference', { namespace: 'global' }));
        expect(ids(await storage.load(NAMESPACE))).toEqual(['a1']);
        expect(ids(await storage.load(OTHER_NAMESPACE))).toEqual(['b1']);
        expect(ids(await storage.load('global'))).toEqual(['g1']);
        expect(ids(await storage.search(NAMESPACE, 'pnpm', 10))).toEqual(['a1']);
        expect(ids(await storage.search(OTHER_NAMESPACE, '', 10))).toEqual(['b1']);
      });
    });

    describe('delete', () => {
      it('a deleted memory is gone from load and search; others stay', async () => {
        await storage.upsert(memory('keep', 'Keep this pnpm fact'));
        await storage.upsert(memory('drop', 'Drop this pnpm fact'));
        await storage.delete('drop');
        expect(ids(await storage.load(NAMESPACE))).toEqual(['keep']);
        expect(ids(await storage.search(NAMESPACE, 'pnpm', 10))).toEqual(['keep']);
      });

      it('deleting an unknown id does not throw', async () => {
        await expect(storage.delete('no-such-memory')).resolves.toBeUndefined();
      });

      it('a deleted id can be inserted again as a new memory', async () => {
        const first = await storage.upsert(memory('m1', 'Old fact'));
        await storage.delete('m1');
        await tick();
        const second = await storage.upsert(memory('m1', 'New fact'));
        expect(second.createdAt).toBeGreaterThan(first.createdAt);
        expect(await storage.load(NAMESPACE)).toEqual([second]);
      });
    });

    describe('search', () => {
      beforeEach(async () => {
        await storage.upsert(memory('both', 'The monorepo uses pnpm workspaces'));
        await tick();
        await storage.upsert(memory('pnpm-only', 'Always run pnpm install after pulling'));
        await tick();
        await storage.upsert(memory('unrelated', 'Likes dark mode in the editor'));
        await tick();
        await storage.upsert(memory('monorepo-only', 'The monorepo has five packages'));
      });

      it('ranks a memory matching more query words first', async () => {
        const results = await storage.search(NAMESPACE, 'pnpm monorepo', 10);
        expect(results[0]?.id).toBe('both');
        expect(ids(results)).toEqual(expect.arrayContaining(['both', 'pnpm-only', 'monorepo-only']));
        expect(ids(results).indexOf('both')).toBeLessThan(ids(results).indexOf('pnpm-only'));
        expect(ids(results).indexOf('both')).toBeLessThan(ids(results).indexOf('monorepo-only'));
      });

      it('matches words case-insensitively', async () => {
        expect((await storage.search(NAMESPACE, 'PNPM Monorepo', 1))[0]?.id).toBe('both');
      });

      it('returns at most `limit` memories', async () => {
        expect(await storage.search(NAMESPACE, 'pnpm monorepo', 2)).toHaveLength(2);
        expect(await storage.search(NAMESPACE, '', 3)).toHaveLength(3);
        expect(await storage.search(NAMESPACE, 'pnpm monorepo', 0)).toEqual([]);
      });

      it('an empty query returns the most recently updated first', async () => {
        expect(ids(await storage.search(NAMESPACE, '', 10))).toEqual([
          'monorepo-only',
          'unrelated',
          'pnpm-only',
          'both',
        ]);
        expect(ids(await storage.search(NAMESPACE, '', 2))).toEqual(['monorepo-only', 'unrelated']);
      });

      it('returns whole memories', async () => {
        const [best] = await storage.search(NAMESPACE, 'workspaces', 1);
        expect(best).toMatchObject({
          id: 'both',
          namespace: NAMESPACE,
          content: 'The monorepo uses pnpm workspaces',
          source: 'session-1',
          tags: [],
        });
        expect(typeof best?.createdAt).toBe('number');
        expect(typeof best?.updatedAt).toBe('number');
      });
    });
  });
}
