import type { SessionRecord, SessionStorage, SessionSummary } from '@youyou/agent';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** What a contract run needs: a fresh, empty storage, and a way to remove what it left behind. */
export interface SessionStorageFixture {
  storage: SessionStorage;
  cleanup?: () => Promise<void>;
}

const TURN = 'turn-1';

/** Records of every kind, with every optional field set, so a storage must keep them all. */
function fullSession(start: number): SessionRecord[] {
  let sequence = 0;
  const at = (offset: number) => ({ sequence: sequence++, timestamp: start + offset });
  return [
    {
      ...at(0),
      type: 'metadata',
      kind: 'session_created',
      modelId: 'model-a',
      cwd: '/work/project',
      systemPrompt: 'Be brief.',
    },
    { ...at(1), type: 'metadata', kind: 'title', title: 'Fix the Parser' },
    {
      ...at(1),
      type: 'system_message',
      turnId: TURN,
      kind: 'skill',
      content: '<skill name="review">\nReview.\n</skill>',
    },
    {
      ...at(1),
      type: 'user_message',
      turnId: TURN,
      content: [
        { type: 'text', text: 'Why does the parser fail on “ünïcode” 🙂?' },
        { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=', path: '/work/project/a.png' },
        { type: 'file', path: '/work/project/a.md', name: 'a.md', mediaType: 'text/markdown', text: '# A\n' },
        {
          type: 'file',
          path: '/work/project/b.pdf',
          name: 'b.pdf',
          mediaType: 'application/pdf',
          data: 'JVBERi0=',
        },
      ],
    },
    {
      ...at(2),
      type: 'assistant_message',
      turnId: TURN,
      content: 'Let me look.',
      reasoning: 'The user wants a diagnosis.',
      status: 'complete',
      providerMetadata: { signature: 'sig-1', nested: { list: [1, 2, 3] } },
    },
    {
      ...at(2),
      type: 'tool_call',
      turnId: TURN,
      callId: 'call-1',
      toolName: 'read_file',
      arguments: '{"path":"src/parser.ts"}',
    },
    {
      ...at(3),
      type: 'tool_result',
      turnId: TURN,
      callId: 'call-1',
      toolName: 'read_file',
      content: 'export function parse() {}',
      isError: false,
      durationMs: 12,
      metadata: { bytes: 26 },
    },
    {
      ...at(4),
      type: 'metadata',
      kind: 'compaction',
      turnId: TURN,
      summary: 'The user asked about the parser.',
      keptFrom: 2,
      keptUserMessages: [0],
    },
    {
      ...at(5),
      type: 'assistant_message',
      turnId: TURN,
      content: 'The pars',
      status: 'incomplete',
      interruptedBy: 'cancel',
    },
    { ...at(5), type: 'system_message', turnId: TURN, kind: 'notice', content: 'Limit reached.' },
  ];
}

/** A small session: optional title, `messages` user/assistant pairs, timestamps from `start` a second apart. */
function session(start: number, options: { title?: string; exchanges?: number } = {}): SessionRecord[] {
  const records: SessionRecord[] = [
    {
      sequence: 0,
      timestamp: start,
      type: 'metadata',
      kind: 'session_created',
      modelId: 'model-a',
      cwd: '/w',
    },
  ];
  let sequence = 1;
  let timestamp = start;
  if (options.title !== undefined) {
    records.push({ sequence: sequence++, timestamp, type: 'metadata', kind: 'title', title: options.title });
  }
  for (let index = 0; index < (options.exchanges ?? 1); index++) {
    timestamp += 1_000;
    const turnId = `turn-${index}`;
    records.push(
      {
        sequence: sequence++,
        timestamp,
        type: 'user_message',
        turnId,
        content: [{ type: 'text', text: `question ${index}` }],
      },
      {
        sequence: sequence++,
        timestamp,
        type: 'assistant_message',
        turnId,
        content: `answer ${index}`,
        status: 'complete',
      },
    );
  }
  return records;
}

const lastTimestamp = (records: readonly SessionRecord[]): number =>
  Math.max(...records.map((record) => record.timestamp));
const ids = (summaries: readonly SessionSummary[]): string[] => summaries.map((summary) => summary.sessionId);

/**
 * The behaviour every `SessionStorage` must have (spec §3.7), run against each implementation:
 * in-memory, JSONL, SQLite, PostgreSQL. `create` returns a fresh, empty storage per test.
 *
 * @example
 * describeSessionStorageContract('InMemorySessionStorage', async () => ({ storage: new InMemorySessionStorage() }));
 */
export function describeSessionStorageContract(
  name: string,
  create: () => Promise<{ storage: SessionStorage; cleanup?: () => Promise<void> }>,
): void {
  describe(`SessionStorage contract: ${name}`, () => {
    let fixture: SessionStorageFixture;
    let storage: SessionStorage;

    beforeEach(async () => {
      fixture = await create();
      storage = fixture.storage;
    });

    afterEach(async () => {
      await fixture.cleanup?.();
    });

    describe('append and load', () => {
      it('load returns every record in append order, across several appends, with every field intact', async () => {
        const records = fullSession(1_700_000_000_000);
        await storage.append('s-full', records.slice(0, 1));
        await storage.append('s-full', records.slice(1, 4));
        await storage.append('s-full', records.slice(4));
        expect(await storage.load('s-full')).toEqual(records);
      });

      it('load of an unknown session is undefined', async () => {
        expect(await storage.load('no-such-session')).toBeUndefined();
      });

      it('sessions are kept apart', async () => {
        const a = session(1_000, { title: 'A' });
        const b = session(2_000, { title: 'B', exchanges: 2 });
        await storage.append('a', a);
        await storage.append('b', b);
        expect(await storage.load('a')).toEqual(a);
        expect(await storage.load('b')).toEqual(b);
      });

      it('a loaded record is a copy: mutating it does not change the storage', async () => {
        const records = fullSession(1_000);
        await storage.append('s', records);
        const loaded = (await storage.load('s')) as SessionRecord[];
        const user = loaded.find((record) => record.type === 'user_message');
        if (user?.type !== 'user_message') throw new Error('no user message loaded');
        (user.content as { type: string; text?: string }[])[0]!.text = 'tampered';
        (user as { turnId: string }).turnId = 'tampered';
        loaded.pop();
        expect(await storage.load('s')).toEqual(fullSession(1_000));
      });

      it('an appended record is a copy: mutating the input afterwards does not change the storage', async () => {
        const records = fullSession(1_000);
        await storage.append('s', records);
        const assistant = records.find((record) => record.type === 'assistant_message');
        if (assistant?.type !== 'assistant_message') throw new Error('no assistant message');
        (assistant as { content: string }).content = 'tampered';
        (assistant.providerMetadata as { signature: string }).signature = 'tampered';
        records.length = 0;
        expect(await storage.load('s')).toEqual(fullSession(1_000));
      });
    });

    describe('summaries', () => {
      it('a summary has the id, the title from the title record, createdAt, updatedAt and the user + assistant message count', async () => {
        const records = fullSession(5_000);
        await storage.append('s-full', records);
        const { sessions } = await storage.list();
        expect(sessions).toEqual([
          {
            sessionId: 's-full',
            title: 'Fix the Parser',
            createdAt: 5_000,
            updatedAt: lastTimestamp(records),
            // One user message and two assistant messages; tool calls, results, system and metadata do not count.
            messageCount: 3,
          },
        ]);
      });

      it('a session without a title record has an empty title', async () => {
        await storage.append('untitled', session(1_000));
        const { sessions } = await storage.list();
        expect(sessions[0]).toMatchObject({ sessionId: 'untitled', title: '', messageCount: 2 });
      });

      it('later appends move updatedAt and the message count, not createdAt', async () => {
        const records = session(1_000, { title: 'Growing', exchanges: 3 });
        await storage.append('grow', records.slice(0, 4));
        await storage.append('grow', records.slice(4));
        const [summary] = (await storage.list()).sessions;
        expect(summary).toEqual({
          sessionId: 'grow',
          title: 'Growing',
          createdAt: 1_000,
          updatedAt: 4_000,
          messageCount: 6,
        });
      });
    });

    describe('list', () => {
      it('lists newest first by updatedAt', async () => {
        await storage.append('old', session(1_000_000));
        await storage.append('newest', session(3_000_000));
        await storage.append('middle', session(2_000_000));
        expect(ids((await storage.list()).sessions)).toEqual(['newest', 'middle', 'old']);
      });

      it('a session written to again moves to the top', async () => {
        await storage.append('a', session(1_000_000));
        await storage.append('b', session(2_000_000));
        await storage.append('a', [
          {
            sequence: 3,
            timestamp: 9_000_000,
            type: 'user_message',
            turnId: 't',
            content: [{ type: 'text', text: 'back' }],
          },
        ]);
        expect(ids((await storage.list()).sessions)).toEqual(['a', 'b']);
      });

      it('pages with a cursor: every session exactly once, newest first, no cursor on the last page', async () => {
        for (let index = 0; index < 5; index++)
          await storage.append(`s${index}`, session(1_000_000 * (index + 1)));
        const first = await storage.list({ limit: 2 });
        expect(ids(first.sessions)).toEqual(['s4', 's3']);
        expect(first.nextCursor).toBeDefined();
        const second = await storage.list({ limit: 2, cursor: first.nextCursor as string });
        expect(ids(second.sessions)).toEqual(['s2', 's1']);
        expect(second.nextCursor).toBeDefined();
        const third = await storage.list({ limit: 2, cursor: second.nextCursor as string });
        expect(ids(third.sessions)).toEqual(['s0']);
        expect(third.nextCursor).toBeUndefined();
      });

      it('a page that ends exactly at the last session has no cursor', async () => {
        for (let index = 0; index < 4; index++)
          await storage.append(`s${index}`, session(1_000_000 * (index + 1)));
        const first = await storage.list({ limit: 2 });
        const second = await storage.list({ limit: 2, cursor: first.nextCursor as string });
        expect(ids(second.sessions)).toEqual(['s1', 's0']);
        expect(second.nextCursor).toBeUndefined();
      });

      it('an empty storage lists nothing', async () => {
        expect(await storage.list()).toEqual({ sessions: [] });
      });
    });

    describe('find', () => {
      beforeEach(async () => {
        await storage.append('3f2a9c10-aaaa', session(1_000_000, { title: 'Fix the Parser' }));
        await storage.append('3f2b0000-bbbb', session(2_000_000, { title: 'Release notes' }));
        await storage.append('9e1d7700-cccc', session(3_000_000, { title: 'Parser benchmarks' }));
      });

      it('finds by id prefix', async () => {
        expect(ids(await storage.find('3f2a')).sort()).toEqual(['3f2a9c10-aaaa']);
        expect(ids(await storage.find('3f2')).sort()).toEqual(['3f2a9c10-aaaa', '3f2b0000-bbbb']);
        expect(ids(await storage.find('9e1d7700-cccc'))).toEqual(['9e1d7700-cccc']);
      });

      it('finds by title substring, case-insensitively', async () => {
        expect(ids(await storage.find('parser')).sort()).toEqual(['3f2a9c10-aaaa', '9e1d7700-cccc']);
        expect(ids(await storage.find('RELEASE NOT'))).toEqual(['3f2b0000-bbbb']);
        expect(ids(await storage.find('the pars'))).toEqual(['3f2a9c10-aaaa']);
      });

      it('returns full summaries', async () => {
        expect(await storage.find('release')).toEqual([
          {
            sessionId: '3f2b0000-bbbb',
            title: 'Release notes',
            createdAt: 2_000_000,
            updatedAt: 2_001_000,
            messageCount: 2,
          },
        ]);
      });

      it('an id in the middle is not a prefix match, and no match is an empty list', async () => {
        expect(await storage.find('aaaa')).toEqual([]);
        expect(await storage.find('no such thing')).toEqual([]);
      });
    });

    describe('delete', () => {
      it('a deleted session is gone from load, list and find; others stay', async () => {
        await storage.append('keep', session(1_000, { title: 'Keep me' }));
        await storage.append('drop', session(2_000, { title: 'Drop me' }));
        await storage.delete('drop');
        expect(await storage.load('drop')).toBeUndefined();
        expect(ids((await storage.list()).sessions)).toEqual(['keep']);
        expect(await storage.find('drop')).toEqual([]);
        expect(await storage.load('keep')).toEqual(session(1_000, { title: 'Keep me' }));
      });

      it('deleting an unknown session does not throw', async () => {
        await expect(storage.delete('no-such-session')).resolves.toBeUndefined();
      });

      it('a deleted id can be used again from scratch', async () => {
        await storage.append('again', session(1_000, { title: 'First life', exchanges: 3 }));
        await storage.delete('again');
        const second = session(5_000, { title: 'Second life' });
        await storage.append('again', second);
        expect(await storage.load('again')).toEqual(second);
        expect((await storage.list()).sessions).toEqual([
          { sessionId: 'again', title: 'Second life', createdAt: 5_000, updatedAt: 6_000, messageCount: 2 },
        ]);
      });
    });
  });
}
