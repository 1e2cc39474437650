import { spawn } from 'node:child_process';
import { appendFile, readFile, readdir, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors/agent-error.ts';
import type { SessionRecord } from '../../src/session/session-record.ts';
import { sessionFileName, sessionIdOfFileName } from '../../src/storage/jsonl-session-file.ts';
import { JsonlSessionStorage } from '../../src/storage/jsonl-session-storage.ts';
import { describeSessionStorageContract } from '@youyou/testing/contracts';
import { createTempWorld } from '../files/helpers.ts';
import type { TempWorld } from '../files/helpers.ts';

describeSessionStorageContract('JsonlSessionStorage', async () => {
  const contractWorld = await createTempWorld();
  return { storage: new JsonlSessionStorage({ home: contractWorld.home }), cleanup: contractWorld.cleanup };
});

describeSessionStorageContract('JsonlSessionStorage, each call through a fresh instance', async () => {
  // A new instance per call: nothing may depend on in-process caches.
  const contractWorld = await createTempWorld();
  const fresh = (): JsonlSessionStorage => new JsonlSessionStorage({ home: contractWorld.home });
  return {
    storage: {
      append: (sessionId, records) => fresh().append(sessionId, records),
      load: (sessionId) => fresh().load(sessionId),
      list: (options) => fresh().list(options),
      find: (query) => fresh().find(query),
      delete: (sessionId) => fresh().delete(sessionId),
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

function user(sequence: number, text: string, timestamp = 1000 + sequence): SessionRecord {
  return { type: 'user_message', sequence, timestamp, turnId: 't1', content: [{ type: 'text', text }] };
}

function title(sequence: number, text: string, timestamp = 1000 + sequence): SessionRecord {
  return { type: 'metadata', kind: 'title', title: text, sequence, timestamp };
}

describe('JsonlSessionStorage', () => {
  it('stores sessions under {home}/sessions as one JSONL file each, in append order', async () => {
    const storage = new JsonlSessionStorage({ home: world.home });
    await storage.append('s1', [user(0, 'a'), user(1, 'b')]);
    await storage.append('s1', [user(2, 'c')]);
    expect(storage.directory).toBe(join(world.home, 'sessions'));
    expect((await storage.load('s1'))?.map((record) => record.sequence)).toEqual([0, 1, 2]);
    const text = await readFile(join(world.home, 'sessions', 's1.jsonl'), 'utf8');
    expect(text.split('\n')).toHaveLength(4);
    expect(await storage.load('missing')).toBeUndefined();
  });

  it('ignores a torn last line (a file cut in the middle of a line) and loses nothing before it', async () => {
    const storage = new JsonlSessionStorage({ home: world.home });
    await storage.append('s1', [user(0, 'first'), user(1, 'second')]);
    const path = storage.pathOf('s1');
    const intact = (await stat(path)).size;
    await storage.append('s1', [user(2, 'third, cut short by a crash')]);
    await truncate(path, intact + 25);
    const fresh = new JsonlSessionStorage({ home: world.home });
    expect((await fresh.load('s1'))?.map((record) => record.sequence)).toEqual([0, 1]);
    expect((await fresh.list()).sessions[0]).toMatchObject({ sessionId: 's1', messageCount: 2 });
  });

  it('cuts the torn line off before the next append, so new records stay readable', async () => {
    const storage = new JsonlSessionStorage({ home: world.home });
    await storage.append('s1', [user(0, 'first')]);
    await appendFile(storage.pathOf('s1'), '{"type":"user_message","seq');
    const warnings: string[] = [];
    const restarted = new JsonlSessionStorage({
      home: world.home,
      logger: { warn: (_fields, message) => warnings.push(message) },
    });
    await restarted.append('s1', [user(1, 'after the crash')]);
    expect((await restarted.load('s1'))?.map((record) => record.sequence)).toEqual([0, 1]);
    expect(warnings).toEqual(['cut a torn last line off a session file before appending']);
  });

  it('survives a process killed with SIGKILL in the middle of a large append', async () => {
    const directory = join(world.root, 'sessions');
    const child = fileURLToPath(new URL('../files/jsonl-crash-child.ts', import.meta.url));
    const writer = spawn(process.execPath, [child, directory], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => writer.stdout.once('data', () => resolve()));
    const path = join(directory, 'crash.jsonl');
    // Kill once the big record has started to land in the file.
    const before = (await stat(path)).size;
    for (let attempt = 0; attempt < 400 && (await stat(path)).size === before; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    writer.kill('SIGKILL');
    await new Promise((resolve) => writer.once('exit', resolve));
    const torn = (await readFile(path)).at(-1) !== 0x0a;
    const records = await new JsonlSessionStorage({ directory }).load('crash');
    expect(records?.slice(0, 50).map((record) => record.sequence)).toEqual(
      Array.from({ length: 50 }, (_, index) => index),
    );
    // Node writes large buffers in chunks, so the kill almost always lands mid-record.
    expect(records).toHaveLength(torn ? 50 : 51);
  });

  it('skips a corrupt line in the middle with a warning and keeps the rest', async () => {
    const storage = new JsonlSessionStorage({ home: world.home });
    await storage.append('s1', [user(0, 'a')]);
    await appendFile(storage.pathOf('s1'), 'not json\n');
    await storage.append('s1', [user(2, 'c')]);
    expect((await storage.load('s1'))?.map((record) => record.sequence)).toEqual([0, 2]);
  });

  it('lists newest first with title and message count, and pages with a cursor', async () => {
    const storage = new JsonlSessionStorage({ home: world.home });
    for (let index = 0; index < 5; index += 1) {
      await storage.append(`s${String(index)}`, [
        title(0, `Session ${String(index)}`, 100 * index),
        user(1, 'x', 100 * index + 1),
      ]);
    }
    const first = await storage.list({ limit: 2 });
    expect(first.sessions.map((summary) => summary.sessionId)).toEqual(['s4', 's3']);
    expect(first.sessions[0]).toEqual({
      sessionId: 's4',
      title: 'Session 4',
      createdAt: 400,
      updatedAt: 401,
      messageCount: 1,
    });
    const second = await storage.list({
      limit: 2,
      ...(first.nextCursor === undefined ? {} : { cursor: first.nextCursor }),
    });
    expect(second.sessions.map((summary) => summary.sessionId)).toEqual(['s2', 's1']);
    const third = await storage.list({
      limit: 2,
      ...(second.nextCursor === undefined ? {} : { cursor: second.nextCursor }),
    });
    expect(third).toEqual({ sessions: [expect.objectContaining({ sessionId: 's0' })] });
  });

  it('picks up appends made after a listing, reading only the new bytes', async () => {
    const storage = new JsonlSessionStorage({ home: world.home });
    await storage.append('s1', [user(0, 'a')]);
    expect((await storage.list()).sessions[0]?.messageCount).toBe(1);
    await storage.append('s1', [user(1, 'b'), title(2, 'Renamed', 5000)]);
    expect((await storage.list()).sessions[0]).toMatchObject({
      messageCount: 2,
      title: 'Renamed',
      updatedAt: 5000,
    });
  });

  it('a listing made before another process deleted and rewrote a session is not reused', async () => {
    const lister = new JsonlSessionStorage({ home: world.home });
    const writer = new JsonlSessionStorage({ home: world.home });
    await writer.append('s1', [title(0, 'First life'), user(1, 'a'), user(2, 'b')]);
    expect((await lister.list()).sessions[0]).toMatchObject({ title: 'First life', messageCount: 2 });
    await writer.delete('s1');
    await writer.append('s1', [
      title(0, 'Second life', 9000),
      user(1, 'much longer than before '.repeat(20), 9001),
    ]);
    expect((await lister.list()).sessions[0]).toMatchObject({
      title: 'Second life',
      messageCount: 1,
      createdAt: 9000,
    });
  });

  it('finds sessions by id prefix or by title, case-insensitively', async () => {
    const storage = new JsonlSessionStorage({ home: world.home });
    await storage.append('abc123', [title(0, 'Refactor the parser')]);
    await storage.append('abd999', [title(0, 'Write docs')]);
    expect((await storage.find('ab')).map((summary) => summary.sessionId).sort()).toEqual([
      'abc123',
      'abd999',
    ]);
    expect((await storage.find('ABC')).map((summary) => summary.sessionId)).toEqual(['abc123']);
    expect((await storage.find('PARSER')).map((summary) => summary.sessionId)).toEqual(['abc123']);
    expect(await storage.find('zzz')).toEqual([]);
  });

  it('deletes a session file; deleting a missing session is a no-op', async () => {
    const storage = new JsonlSessionStorage({ home: world.home });
    await storage.append('s1', [user(0, 'a')]);
    await storage.delete('s1');
    await storage.delete('never-existed');
    expect(await storage.load('s1')).toBeUndefined();
    expect((await storage.list()).sessions).toEqual([]);
  });

  it('keeps any session id inside its folder: separators, dots, case and non-ASCII are encoded', async () => {
    const storage = new JsonlSessionStorage({ home: world.home });
    for (const id of ['../../escape', 'a/b', 'Case', 'case', '会话', '.hidden'])
      await storage.append(id, [user(0, id)]);
    const files = await readdir(storage.directory);
    expect(files).toHaveLength(6);
    expect(files.every((file) => /^[a-z0-9_%-]+\.jsonl$/i.test(file) && !file.startsWith('.'))).toBe(true);
    expect((await storage.load('../../escape'))?.[0]).toMatchObject({ content: [{ text: '../../escape' }] });
    expect((await storage.find('会')).map((summary) => summary.sessionId)).toEqual(['会话']);
    expect(sessionIdOfFileName(sessionFileName('Case/../x'))).toBe('Case/../x');
  });

  it('appends from concurrent calls land whole and in call order', async () => {
    const storage = new JsonlSessionStorage({ home: world.home });
    await Promise.all(
      Array.from({ length: 50 }, (_, index) => storage.append('busy', [user(index, 'x'.repeat(1000))])),
    );
    expect((await storage.load('busy'))?.map((record) => record.sequence)).toEqual(
      Array.from({ length: 50 }, (_, index) => index),
    );
  });

  it.each([
    [
      'an empty session id',
      (storage: JsonlSessionStorage): Promise<unknown> => storage.append('', [user(0, 'a')]),
      'INVALID_INPUT',
    ],
    [
      'a cursor it never returned',
      (storage: JsonlSessionStorage): Promise<unknown> => storage.list({ cursor: 'nonsense' }),
      'INVALID_INPUT',
    ],
    [
      'a zero limit',
      (storage: JsonlSessionStorage): Promise<unknown> => storage.list({ limit: 0 }),
      'INVALID_INPUT',
    ],
  ])('rejects %s with a structured error', async (_label, call, code) => {
    const storage = new JsonlSessionStorage({ home: world.home });
    const error = await call(storage).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe(code);
  });

  it('reports an unwritable sessions folder as STORAGE_ERROR', async () => {
    await writeFile(join(world.home, 'sessions'), 'a file where the folder should be');
    const error = await new JsonlSessionStorage({ home: world.home })
      .append('s1', [user(0, 'a')])
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'STORAGE_ERROR' });
  });
});
