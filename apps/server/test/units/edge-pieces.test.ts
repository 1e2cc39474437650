import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeSqliteDatabase } from '../../src/database/index.ts';
import { EventHub } from '../../src/events/index.ts';
import type { WorkbenchEvent } from '../../src/events/index.ts';
import { SecretRedactor } from '../../src/logging/index.ts';
import { repairRecords } from '../../src/runs/index.ts';
import { checkUploadName, isAllowedHost, isSameOrigin } from '../../src/security/index.ts';
import { SecretStore, loadSecretKey } from '../../src/storage/index.ts';

describe('the node:sqlite driver for Kysely', () => {
  it('runs reads, writes, RETURNING and transactions, with booleans stored as integers', async () => {
    const db = new Kysely<{ items: { id: number; name: string; done: number } }>({
      dialect: new SqliteDialect({ database: new NodeSqliteDatabase(new DatabaseSync(':memory:')) }),
    });
    await sql`create table items (id integer primary key, name text, done integer)`.execute(db);
    const inserted = await db
      .insertInto('items')
      .values({ id: 1, name: 'a', done: true as unknown as number })
      .returning(['id', 'done'])
      .executeTakeFirst();
    expect(inserted).toEqual({ id: 1, done: 1 });
    await expect(
      db.transaction().execute(async (transaction) => {
        await transaction.insertInto('items').values({ id: 2, name: 'b', done: 0 }).execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await db.selectFrom('items').select('name').execute()).toEqual([{ name: 'a' }]);
    const updated = await db.updateTable('items').set({ name: 'z' }).where('id', '=', 1).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
    await db.destroy();
  });
});

describe('the event hub', () => {
  const event = (seq: number, type = 'message.delta'): WorkbenchEvent =>
    ({ seq, run_id: 'r', conversation_id: 'c', ts: '', v: 1, type, payload: {} }) as WorkbenchEvent;

  it('serves recent events from memory only when it holds every one after the cursor', () => {
    const hub = new EventHub();
    const signals: number[] = [];
    const stop = hub.subscribe('c', (seq) => signals.push(seq));
    hub.publish('c', [event(5), event(6, 'session.record'), event(7)]);
    expect(hub.since('c', 4, 10)?.map((entry) => entry.seq)).toEqual([5, 7]);
    expect(hub.since('c', 6, 10)?.map((entry) => entry.seq)).toEqual([7]);
    expect(hub.since('c', 2, 10)).toBeUndefined();
    // Another server wrote seq 8: a gap starts memory afresh.
    hub.publish('c', [event(9)]);
    expect(hub.since('c', 7, 10)).toBeUndefined();
    expect(signals).toEqual([7, 9]);
    stop();
    expect(hub.watched).toBe(0);
  });
});

describe('interrupted-run repairs', () => {
  const record = (record: object) => ({ type: 'session.record', payload: { record } });
  it('answers tool calls left without a result, then keeps the text that streamed as an incomplete reply', () => {
    const own = [
      record({ type: 'user_message', turnId: 't', content: [], sequence: 0, timestamp: 0 }),
      record({
        type: 'assistant_message',
        turnId: 't',
        content: '',
        status: 'complete',
        sequence: 1,
        timestamp: 0,
      }),
      record({
        type: 'tool_call',
        turnId: 't',
        callId: 'k1',
        toolName: 'x',
        arguments: '{}',
        sequence: 2,
        timestamp: 0,
      }),
      { type: 'message.delta', payload: { text: 'half an ' } },
      { type: 'message.delta', payload: { text: 'answer' } },
    ];
    const repairs = repairRecords(own, 3, 99);
    expect(repairs).toMatchObject([
      { type: 'tool_result', callId: 'k1', isError: true, sequence: 3 },
      {
        type: 'assistant_message',
        content: 'half an answer',
        status: 'incomplete',
        interruptedBy: 'error',
        sequence: 4,
      },
    ]);
    expect(repairRecords([{ type: 'run.phase', payload: {} }], 0, 0)).toEqual([]);
  });
});

describe('host, origin and name checks', () => {
  it('allows loopback names and IP literals, listed names only otherwise', () => {
    expect(isAllowedHost('localhost:1', [])).toBe(true);
    expect(isAllowedHost('[::1]:1', [])).toBe(true);
    expect(isAllowedHost('10.0.0.2:1', [])).toBe(true);
    expect(isAllowedHost('box.lan:1', [])).toBe(false);
    expect(isAllowedHost('box.lan:1', ['box.lan'])).toBe(true);
    expect(isAllowedHost(undefined, [])).toBe(false);
    expect(isSameOrigin(undefined, 'a:1')).toBe(true);
    expect(isSameOrigin('http://a:1', 'a:1')).toBe(true);
    expect(isSameOrigin('http://a:2', 'a:1')).toBe(false);
    expect(isSameOrigin('null', 'a:1')).toBe(false);
  });

  it('upload names are plain file names', () => {
    expect(checkUploadName(' report.pdf ')).toBe('report.pdf');
    for (const name of ['', '.', '..', 'a/b', 'a\\b', 'a\u0000b', 'x'.repeat(300)])
      expect(() => checkUploadName(name)).toThrow();
  });
});

describe('secrets and redaction', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'youyou-secrets-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('the secret key is created once and reused; YOUYOU_SECRET_KEY wins', async () => {
    const file = join(directory, 'secret.key');
    const first = await loadSecretKey(file, {});
    expect(await loadSecretKey(file, {})).toEqual(first);
    const forced = Buffer.alloc(32, 7);
    expect(await loadSecretKey(file, { YOUYOU_SECRET_KEY: forced.toString('base64') })).toEqual(forced);
    await expect(loadSecretKey(file, { YOUYOU_SECRET_KEY: 'c2hvcnQ=' })).rejects.toThrow('32 bytes');
  });

  it('a secret round-trips through AES-GCM and another key cannot read it', async () => {
    const db = new Kysely<never>({
      dialect: new SqliteDialect({ database: new NodeSqliteDatabase(new DatabaseSync(':memory:')) }),
    });
    await sql`create table secrets (id text primary key, owner text, name text, ciphertext text, created_at integer, updated_at integer)`.execute(
      db,
    );
    const store = new SecretStore(db as never, Buffer.alloc(32, 1));
    const id = await store.put('k', 'sk-live-123');
    expect(await store.reveal(id)).toBe('sk-live-123');
    const row = (await sql<{ ciphertext: string }>`select ciphertext from secrets`.execute(db)).rows[0];
    expect(row?.ciphertext).not.toContain('sk-live');
    await expect(new SecretStore(db as never, Buffer.alloc(32, 2)).reveal(id)).rejects.toMatchObject({
      code: 'INTERNAL_ERROR',
    });
    await db.destroy();
  });

  it('the redactor blanks known secret values wherever they appear', () => {
    const lines: string[] = [];
    const redactor = new SecretRedactor({ write: (line: string) => lines.push(line) });
    redactor.add('tok3n-abcdefgh');
    redactor.add('short');
    redactor.write('GET /?token=tok3n-abcdefgh and short words\n');
    expect(lines).toEqual(['GET /?token=[redacted] and short words\n']);
  });
});
