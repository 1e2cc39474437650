import type { RunReplay } from '@youyou/contracts';
import { fakeTextReply, fakeToolCallReply } from '@youyou/testing';
import { createWorkbenchClient } from '@youyou/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

for (const kind of DATABASE_KINDS) {
  describe(`replay of a conversation's answer on ${kind}`, () => {
    let database: TestDatabase;
    let server: TestServer;

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      server = await startTestServer({ database, lightweightFallback: false });
    });

    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    it("an answer of an ordinary conversation replays as its recorded events with each model call's assembly report placed before what that call produced", async () => {
      server.fake.push(fakeToolCallReply('current_time', {}), fakeTextReply('It is noon.'));
      const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {});
      const sent = await server.call<{ run: { id: string } }>(
        'POST',
        `/api/conversations/${conversation.id}/messages`,
        { text: 'What time is it?' },
      );
      await server.settled(conversation.id, sent.run.id);

      const client = createWorkbenchClient({ baseUrl: server.url, token: server.token });
      const replay: RunReplay = await client.runReplay(sent.run.id);
      expect(replay.run).toMatchObject({ id: sent.run.id, status: 'completed', kind: 'conversation' });
      const types = replay.events.map((event) => event.type);
      expect(types).toEqual(
        expect.arrayContaining(['tool.call', 'tool.result', 'message.delta', 'run.completed']),
      );
      expect(replay.events.every((event) => event.run_id === sent.run.id)).toBe(true);
      const seqs = replay.events.map((event) => event.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

      // Two model calls: the one that asked for the tool, the one that answered with its result.
      expect(replay.calls.map((call) => call.call_index)).toEqual([0, 1]);
      const [first, second] = replay.calls;
      expect(first?.report.model_id).toBeTruthy();
      expect(first?.report.slots.length).toBeGreaterThan(0);
      const seqOf = (type: string): number =>
        replay.events.find((event) => event.type === type)?.seq ?? Number.NaN;
      // The first call comes before the tool call it produced, the second after the tool's result
      // and before the answer's text.
      expect(first?.before_seq).not.toBeNull();
      expect(first?.before_seq ?? Infinity).toBeLessThanOrEqual(seqOf('tool.call'));
      expect(second?.before_seq ?? 0).toBeGreaterThan(seqOf('tool.result'));
      expect(second?.before_seq ?? Infinity).toBeLessThanOrEqual(seqOf('message.delta'));
    });

    it('the replay of a run that does not exist is a structured 404', async () => {
      const response = await server.request<{ error: { code: string } }>('GET', '/api/runs/nope/replay');
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    });
  });
}
