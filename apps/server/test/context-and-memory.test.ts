import type {
  CommandDescriptor,
  ContextAssemblyReport,
  HitlCardView,
  MemoryExport,
  MemoryItem,
  MemoryList,
  MemorySettings,
} from '@youyou/contracts';
import {
  fakeTextReply,
  fakeToolCallReply,
  lastUserText,
  type FakeReply,
  type RecordedRequest,
} from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMORY_CANDIDATE_PROMPT } from '../src/memory/index.ts';
import { TITLE_SYSTEM_PROMPT } from '../src/models/index.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

interface ChatBody {
  messages?: { role: string; content: unknown }[];
}

const systemOf = (request: RecordedRequest): string =>
  ((request.body as ChatBody).messages ?? [])
    .filter((message) => message.role === 'system')
    .map((message) =>
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    )
    .join('\n');
const isCandidateCall = (request: RecordedRequest): boolean =>
  systemOf(request).includes(MEMORY_CANDIDATE_PROMPT.slice(0, 60));
const isTitleCall = (request: RecordedRequest): boolean => systemOf(request).includes(TITLE_SYSTEM_PROMPT);
const text = (value: string): FakeReply => ({ type: 'stream', steps: [{ type: 'text', text: value }] });

/** The fake model: long answers on request, candidates for the memory prompt, short titles. */
function reply(request: RecordedRequest): FakeReply {
  const last = lastUserText(request.body);
  if (isTitleCall(request)) return text('A title');
  if (isCandidateCall(request)) {
    return last.includes('PROPOSE')
      ? text(
          JSON.stringify({
            candidates: [
              { type: 'procedure', content: 'Deploys on Fridays', confidence: 0.8, scope: 'user' },
              { type: 'preference', content: 'Likes long answers', confidence: 0.4, scope: 'user' },
            ],
          }),
        )
      : text('{"candidates": []}');
  }
  if (last.includes('LONG')) return text(`answer ${'y'.repeat(24_000)}`);
  return text(`ok: ${last.slice(0, 40)}`);
}

for (const kind of DATABASE_KINDS) {
  describe(`context assembly and memory on ${kind}`, () => {
    let database: TestDatabase;
    let server: TestServer;
    let profileId: string;

    const chats = (): RecordedRequest[] =>
      server.fake.chatRequests.filter((request) => !isCandidateCall(request) && !isTitleCall(request));
    const send = async (conversationId: string, message: string): Promise<string> => {
      const sent = await server.call<{ run: { id: string } }>(
        'POST',
        `/api/conversations/${conversationId}/messages`,
        { text: message },
      );
      await server.settled(conversationId, sent.run.id);
      return sent.run.id;
    };
    const reports = async (runId: string): Promise<ContextAssemblyReport[]> =>
      (await server.call<{ reports: ContextAssemblyReport[] }>('GET', `/api/runs/${runId}/context`)).reports;
    const setMemory = (settings: Partial<MemorySettings>) =>
      server.call<MemorySettings>('PUT', '/api/memory/settings', settings);
    const conversation = async (extra: Record<string, unknown> = {}) =>
      (await server.call<{ id: string }>('POST', '/api/conversations', extra)).id;

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      server = await startTestServer({ database, fake: { fallback: reply } });
      await server.call('POST', '/api/providers', {
        name: 'small',
        kind: 'openai-compatible',
        base_url: server.fake.url,
        models: [{ id: 'tiny', context_window: 40_000 }],
      });
      profileId = (
        await server.call<{ id: string }>('POST', '/api/profiles', {
          name: 'Small window',
          systemPrompt: '',
          model: { id: 'small/tiny' },
          // The output reserve: budget = 40,000 − 20,000.
          parameters: { max_tokens: 20_000 },
          tools: { allow: ['*'], deny: [], confirm: [] },
          // The agent core compacts at the window; the assembler trims before that.
          context: { policy: 'no-compaction' },
          hitl: { askOnAmbiguity: false, timeoutSec: null },
          budget: {},
        })
      ).id;
    });

    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    it('stores what the model saw for every run; over budget the oldest exchange leaves the request and the report says why', async () => {
      const id = await conversation({ profile_id: profileId });
      const first = await send(id, `first LONG ${'a'.repeat(24_000)}`);
      await send(id, `second LONG ${'b'.repeat(24_000)}`);
      const third = await send(id, 'third, short');

      const [firstReport] = await reports(first);
      expect(firstReport).toMatchObject({
        call_index: 0,
        context_window: 40_000,
        output_reserve_tokens: 20_000,
        budget_tokens: 20_000,
        estimator: 'chars/4',
        trims: [],
        over_budget: false,
      });
      expect(firstReport?.slots.find((slot) => slot.slot === 'current_turn')?.tokens).toBeGreaterThan(6_000);

      const [thirdReport] = await reports(third);
      expect(thirdReport?.trims).toEqual([
        expect.objectContaining({
          slot: 'history',
          kind: 'dropped',
          reason: 'budget',
          item: '2 oldest messages',
        }),
      ]);
      const history = thirdReport?.slots.find((slot) => slot.slot === 'history');
      expect(history?.requested_tokens).toBeGreaterThan(history?.tokens ?? 0);
      expect(history?.items).toBe(2);
      expect(thirdReport?.total_tokens).toBeLessThanOrEqual(thirdReport?.budget_tokens ?? 0);
      // The model really got the trimmed request: the first exchange is not in it, the second is.
      const sent = JSON.stringify(chats().at(-1)?.body);
      expect(sent).not.toContain('first LONG');
      expect(sent).toContain('second LONG');
      expect(sent).toContain('Earlier messages of this conversation were left out');
      // The conversation itself keeps everything.
      const view = JSON.stringify(await server.call('GET', `/api/conversations/${id}`));
      expect(view).toContain('first LONG');

      const missing = await server.request<{ error: { code: string } }>(
        'GET',
        '/api/runs/no-such-run/context',
      );
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('NOT_FOUND');
    });

    it("the knowledge slot brings passages of the project's knowledge into the request, with their citation link", async () => {
      const project = await server.call<{ id: string }>('POST', '/api/projects', { name: 'Knowledge slot' });
      const id = await conversation({ project_id: project.id });
      server.fake.push(
        fakeToolCallReply('create_artifact', {
          title: 'Refund policy',
          kind: 'markdown',
          content: '# Refunds\n\nRefunds are granted within 30 days of purchase, with the receipt.\n',
        }),
        fakeTextReply('written'),
      );
      await send(id, 'write the refund policy');
      for (let attempt = 0; attempt < 200; attempt++) {
        const list = await server.call<{ items: { status: string }[] }>(
          'GET',
          `/api/projects/${project.id}/knowledge`,
        );
        if (list.items.some((item) => item.status === 'indexed')) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const runId = await send(id, 'How many days do refunds take?');
      const system = systemOf(chats().at(-1) as RecordedRequest);
      expect(system).toContain('<knowledge>');
      expect(system).toContain('Refunds are granted within 30 days');
      expect(system).toContain('youyou-doc:');
      // The user's message stays the user's own words.
      expect(lastUserText(chats().at(-1)?.body)).toBe('How many days do refunds take?');
      const [report] = await reports(runId);
      expect(report?.off ?? []).not.toContain('knowledge');
      expect(report?.slots.find((slot) => slot.slot === 'knowledge')?.items).toBeGreaterThan(0);
    });

    it('memory is off by default: writes are refused, nothing is injected and nothing is proposed', async () => {
      expect(await server.call<MemorySettings>('GET', '/api/memory/settings')).toEqual({
        enabled: false,
        max_items: 20,
        propose_candidates: true,
        capacity: 500,
      });
      const refused = await server.request<{ error: { code: string } }>('POST', '/api/memories', {
        body: { scope: 'user', content: 'Likes tea' },
      });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('MEMORY_DISABLED');

      const before = server.fake.chatRequests.filter(isCandidateCall).length;
      const id = await conversation();
      const runId = await send(id, 'remember that I deploy on Fridays PROPOSE');
      const [report] = await reports(runId);
      expect(report?.off).toContain('memory');
      expect(report?.slots.find((slot) => slot.slot === 'memory')?.tokens).toBe(0);
      expect(systemOf(chats().at(-1) as RecordedRequest)).not.toContain('# Memory');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(server.fake.chatRequests.filter(isCandidateCall).length).toBe(before);
      expect(
        (await server.call<{ cards: HitlCardView[] }>('GET', `/api/conversations/${id}/cards`)).cards,
      ).toEqual([]);
    });

    it('lists, searches, edits, deletes, exports and clears memories; bad input is a structured error', async () => {
      await setMemory({ enabled: true, propose_candidates: false });
      const project = await server.call<{ id: string }>('POST', '/api/projects', { name: 'Memory project' });
      const mine = await server.call<MemoryItem>('POST', '/api/memories', {
        scope: 'user',
        type: 'preference',
        content: '回答请用简体中文',
        tags: ['language'],
      });
      expect(mine).toMatchObject({
        scope: 'user',
        project_id: null,
        source: 'manual',
        confidence: 1,
        type: 'preference',
      });
      const theirs = await server.call<MemoryItem>('POST', '/api/memories', {
        scope: 'project',
        project_id: project.id,
        content: 'The build uses 100% of CPU_CORES',
      });

      const noProject = await server.request<{ error: { code: string } }>('POST', '/api/memories', {
        body: { scope: 'project', content: 'x' },
      });
      expect(noProject.status).toBe(400);
      expect(noProject.body.error.code).toBe('INVALID_INPUT');
      const unknownProject = await server.request<{ error: { code: string } }>('POST', '/api/memories', {
        body: { scope: 'project', project_id: 'nope', content: 'x' },
      });
      expect(unknownProject.status).toBe(404);
      const empty = await server.request<{ error: { code: string } }>('POST', '/api/memories', {
        body: { scope: 'user', content: '   ' },
      });
      expect(empty.body.error.code).toBe('INVALID_INPUT');

      const search = async (q: string): Promise<string[]> =>
        (await server.call<MemoryList>('GET', `/api/memories?q=${encodeURIComponent(q)}`)).memories.map(
          (memory) => memory.id,
        );
      expect(await search('简体中文')).toEqual([mine.id]);
      expect(await search('100%')).toEqual([theirs.id]);
      expect(await search('cpu_')).toEqual([theirs.id]);
      expect(await search('%')).toEqual([theirs.id]);
      expect(await search('language')).toEqual([mine.id]);
      const scoped = await server.call<MemoryList>(
        'GET',
        `/api/memories?scope=project&project_id=${project.id}`,
      );
      expect(scoped).toMatchObject({ total: 1, memories: [{ id: theirs.id }] });

      const edited = await server.call<MemoryItem>('PATCH', `/api/memories/${mine.id}`, {
        content: '回答请用繁体中文',
        expires_at: '2999-01-01T00:00:00.000Z',
      });
      expect(edited).toMatchObject({ content: '回答请用繁体中文', expires_at: '2999-01-01T00:00:00.000Z' });

      const exported = await server.call<MemoryExport>('GET', '/api/memories/export');
      expect(exported).toMatchObject({ format: 'youyou.memory', version: 1 });
      expect(exported.memories.map((memory) => memory.id)).toEqual(
        expect.arrayContaining([mine.id, theirs.id]),
      );

      expect(
        await server.call('POST', '/api/memories/clear', { scope: 'project', project_id: project.id }),
      ).toEqual({
        deleted: 1,
      });
      expect((await server.request('DELETE', `/api/memories/${mine.id}`)).status).toBe(204);
      const gone = await server.request<{ error: { code: string } }>('DELETE', `/api/memories/${mine.id}`);
      expect(gone.status).toBe(404);
      expect(gone.body.error.code).toBe('NOT_FOUND');
      expect((await server.call<MemoryList>('GET', '/api/memories')).total).toBe(0);
    });

    it('/remember is a built-in command, and what it stores reaches the next request through the memory slot', async () => {
      await setMemory({ enabled: true, propose_candidates: false });
      const { commands } = await server.call<{ commands: CommandDescriptor[] }>('GET', '/api/commands');
      expect(commands.find((command) => command.name === 'remember')).toMatchObject({
        source: 'builtin',
        parameters: [
          expect.objectContaining({ name: 'text', required: true }),
          expect.objectContaining({ name: 'scope' }),
        ],
      });
      // What the composer's /remember sends.
      const remembered = await server.call<MemoryItem>('POST', '/api/memories', {
        scope: 'user',
        content: 'The user writes British English',
      });
      const id = await conversation();
      const runId = await send(id, 'Which English spelling should I use?');
      expect(systemOf(chats().at(-1) as RecordedRequest)).toContain('The user writes British English');
      const [report] = await reports(runId);
      expect(report?.off ?? []).not.toContain('memory');
      expect(report?.slots.find((slot) => slot.slot === 'memory')).toMatchObject({ items: 1 });
      const touched = await server.call<MemoryItem>('GET', `/api/memories/${remembered.id}`);
      expect(touched.last_accessed_at).not.toBeNull();

      // Switched off, the same memory stays stored but no request carries it.
      await setMemory({ enabled: false });
      await send(id, 'And now?');
      expect(systemOf(chats().at(-1) as RecordedRequest)).not.toContain('British English');
      await server.call('DELETE', `/api/memories/${remembered.id}`);
    });

    it('after a run the lightweight model proposes candidates as HITL cards; one answered "remember" is stored, one answered "do not remember" is not', async () => {
      await setMemory({ enabled: true, propose_candidates: true });
      const id = await conversation();
      const runId = await send(id, 'I deploy on Fridays, PROPOSE something');
      let cards: HitlCardView[] = [];
      for (let attempt = 0; attempt < 100 && cards.length < 2; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        cards = (
          await server.call<{ cards: HitlCardView[] }>('GET', `/api/conversations/${id}/cards?status=pending`)
        ).cards;
      }
      // The same pending-card store as every card: a form card on the message, its subject the candidate.
      expect(cards).toMatchObject([
        { message_id: runId, status: 'pending', card: { kind: 'form', allowFreeInput: false } },
        { message_id: runId, status: 'pending', card: { kind: 'form' } },
      ]);
      const [keep, drop] = cards as [HitlCardView, HitlCardView];
      expect(keep.card.subject?.type).toBe('memory.candidate');
      expect(keep.card.question).toContain('Deploys on Fridays');
      expect(keep.card.fields?.find((field) => field.id === 'content')?.default).toBe('Deploys on Fridays');
      // Nothing is stored before the user says yes; the run stays completed while its cards wait.
      expect((await server.call<MemoryList>('GET', '/api/memories')).total).toBe(0);
      expect((await server.call<{ status: string }>('GET', `/api/runs/${runId}`)).status).toBe('completed');
      const log = JSON.stringify(await server.call('GET', `/api/conversations/${id}/event-log`));
      expect(log).toContain('hitl.request');
      expect(log).not.toContain('memory.proposed');

      const answer = (cardId: string, values: Record<string, string>) =>
        server.request<{ error?: { code: string } }>(
          'POST',
          `/api/conversations/${id}/cards/${cardId}/answer`,
          {
            body: { answer: { type: 'form', values } },
          },
        );
      // Memory switched off meanwhile: the answer is refused and the card keeps waiting.
      await setMemory({ enabled: false });
      const refused = await answer(keep.card.id, { decision: 'remember', content: 'Deploys on Fridays' });
      expect(refused.status).toBe(409);
      expect(refused.body.error?.code).toBe('MEMORY_DISABLED');
      expect(
        (await server.call<HitlCardView>('GET', `/api/conversations/${id}/cards/${keep.card.id}`)).status,
      ).toBe('pending');
      await setMemory({ enabled: true });

      expect(
        (await answer(keep.card.id, { decision: 'remember', content: 'Deploys on Fridays after 3 pm' }))
          .status,
      ).toBe(200);
      const memories = await server.call<MemoryList>('GET', '/api/memories');
      expect(memories.memories).toMatchObject([
        { content: 'Deploys on Fridays after 3 pm', source: 'run', source_run_id: runId, confidence: 0.8 },
      ]);
      expect((await answer(drop.card.id, { decision: 'forget', content: 'Likes long answers' })).status).toBe(
        200,
      );
      expect((await server.call<MemoryList>('GET', '/api/memories')).total).toBe(1);
      const again = await answer(drop.card.id, { decision: 'remember', content: 'Likes long answers' });
      expect(again.status).toBe(409);
      expect(again.body.error?.code).toBe('CARD_ALREADY_RESOLVED');
      expect(JSON.stringify(await server.call('GET', `/api/conversations/${id}/event-log`))).toContain(
        'hitl.resolved',
      );
      // The separate candidate resource is gone.
      expect((await server.request('GET', `/api/conversations/${id}/memory-candidates`)).status).toBe(404);
      await server.call('POST', '/api/memories/clear', {});
      await setMemory({ enabled: false });
    });
  });
}
