import type { AgentProfile, AgentTree, ContextAssemblyReport } from '@youyou/contracts';
import { fakeTextReply, fakeToolCallReply, sessionScripts, type SessionScripts } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { allNodes } from './support/agent-tree.ts';

const REFUND_POLICY = [
  '# Refunds',
  '',
  'Refunds are granted within 30 days of purchase, with the receipt. The money goes back to the card that paid.',
  '',
  '## Exchanges',
  '',
  'Refunds of sale items are exchanges only: a sale item can be swapped for another size within 30 days.',
  '',
].join('\n');

const profileBody = (name: string, model: string, extra: Record<string, unknown> = {}) => ({
  name,
  systemPrompt: '',
  model: { id: model },
  parameters: { max_tokens: 20_000 },
  tools: { allow: ['*'], deny: [], confirm: [] },
  context: { policy: 'no-compaction', ...extra },
  hitl: { askOnAmbiguity: false, timeoutSec: null },
  budget: {},
});

describe.each(DATABASE_KINDS)('profile slot shares and sub-agent context assembly on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let scripts: SessionScripts;
  let projectId: string;
  let roomy: AgentProfile;
  let narrow: AgentProfile;

  const reports = async (runId: string): Promise<ContextAssemblyReport[]> =>
    (await server.call<{ reports: ContextAssemblyReport[] }>('GET', `/api/runs/${runId}/context`)).reports;
  const send = async (conversationId: string, text: string): Promise<string> => {
    const sent = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversationId}/messages`,
      { text },
    );
    await server.settled(conversationId, sent.run.id);
    return sent.run.id;
  };
  const conversation = async (profileId: string): Promise<string> =>
    (
      await server.call<{ id: string }>('POST', '/api/conversations', {
        project_id: projectId,
        profile_id: profileId,
      })
    ).id;
  const knowledgeOf = (report: ContextAssemblyReport | undefined) =>
    report?.slots.find((slot) => slot.slot === 'knowledge');

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    scripts = sessionScripts();
    server = await startTestServer({ database, fake: { fallback: (request) => scripts.reply(request) } });
    await server.call('POST', '/api/providers', {
      name: 'small',
      kind: 'openai-compatible',
      base_url: server.fake.url,
      models: [
        { id: 'tiny', context_window: 40_000 },
        { id: 'wide', context_window: 100_000 },
      ],
    });
    roomy = await server.call<AgentProfile>('POST', '/api/profiles', profileBody('Roomy', 'small/tiny'));
    narrow = await server.call<AgentProfile>(
      'POST',
      '/api/profiles',
      profileBody('Narrow knowledge', 'small/wide', {
        assembly: { version: 1, slots: { knowledge: { priority: 4, share: 0.0002 } } },
      }),
    );
    projectId = (await server.call<{ id: string }>('POST', '/api/projects', { name: 'Shop' })).id;
    // The project's knowledge: an artifact written in one of its conversations, then indexed.
    scripts.add({
      match: 'write the refund policy',
      replies: [
        fakeToolCallReply('create_artifact', {
          title: 'Refund policy',
          kind: 'markdown',
          content: REFUND_POLICY,
        }),
        fakeTextReply('written'),
      ],
    });
    await send(await conversation(roomy.id), 'write the refund policy');
    for (let attempt = 0; attempt < 400; attempt++) {
      const list = await server.call<{ items: { status: string }[] }>(
        'GET',
        `/api/projects/${projectId}/knowledge`,
      );
      if (list.items.some((item) => item.status === 'indexed')) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('a profile keeps its slot shares and priorities, versioned, and gets them back as it set them', async () => {
    expect(narrow.context.assembly).toEqual({
      version: 1,
      slots: { knowledge: { priority: 4, share: 0.0002 } },
    });
    const read = await server.call<AgentProfile>('GET', `/api/profiles/${narrow.id}`);
    expect(read.context).toEqual(narrow.context);
    const exported = await server.call<{ profiles: AgentProfile[] }>(
      'GET',
      `/api/profiles/export?id=${narrow.id}`,
    );
    expect(exported.profiles[0]?.context.assembly?.slots.knowledge?.share).toBe(0.0002);
  });

  it('shares out of 0–1 or adding up to more than the budget are refused with CONTEXT_SHARES_INVALID', async () => {
    const tooMuch = await server.request<{ error: { code: string; details: { problems: unknown[] } } }>(
      'POST',
      '/api/profiles',
      {
        body: profileBody('Greedy', 'small/tiny', {
          assembly: {
            version: 1,
            slots: { knowledge: { priority: 4, share: 0.7 }, memory: { priority: 3, share: 0.5 } },
          },
        }),
      },
    );
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.error.code).toBe('CONTEXT_SHARES_INVALID');
    expect(JSON.stringify(tooMuch.body.error.details.problems)).toContain('add up to 1.2');

    const outOfRange = await server.request<{ error: { code: string; details: { problems: unknown[] } } }>(
      'PATCH',
      `/api/profiles/${roomy.id}`,
      {
        body: {
          context: {
            policy: 'default',
            assembly: { version: 1, slots: { history: { priority: 5, share: 1.5 } } },
          },
        },
      },
    );
    expect(outOfRange.status).toBe(422);
    expect(outOfRange.body.error.code).toBe('CONTEXT_SHARES_INVALID');
    expect(JSON.stringify(outOfRange.body.error.details.problems)).toContain('history');

    const imported = await server.request<{ error: { code: string } }>('POST', '/api/profiles/import', {
      body: {
        format: 'youyou.profile',
        version: 1,
        profiles: [
          profileBody('Imported greedy', 'small/tiny', {
            assembly: { version: 1, slots: { knowledge: { priority: 4, share: -0.1 } } },
          }),
        ],
      },
    });
    expect(imported.status).toBe(422);
    expect(imported.body.error.code).toBe('CONTEXT_SHARES_INVALID');
    // Nothing was stored or changed.
    const names = (await server.call<{ profiles: AgentProfile[] }>('GET', '/api/profiles')).profiles.map(
      (profile) => profile.name,
    );
    expect(names).not.toContain('Greedy');
    expect(names).not.toContain('Imported greedy');
    expect(
      (await server.call<AgentProfile>('GET', `/api/profiles/${roomy.id}`)).context.assembly,
    ).toBeUndefined();
  });

  it("a profile with a smaller knowledge share gets a trimmed knowledge slot in its run's assembly report", async () => {
    const roomyRun = await send(await conversation(roomy.id), 'How many days do refunds take?');
    const narrowRun = await send(await conversation(narrow.id), 'How many days do refunds take?');

    const [roomyReport] = await reports(roomyRun);
    expect(knowledgeOf(roomyReport)?.items).toBeGreaterThan(0);
    expect(roomyReport?.trims.filter((trim) => trim.slot === 'knowledge')).toEqual([]);

    const [narrowReport] = await reports(narrowRun);
    const knowledge = knowledgeOf(narrowReport);
    // 0.0002 of the wide model's budget (100,000 − 20,000 reserved for the output): 16 tokens.
    expect(knowledge?.cap_tokens).toBe(16);
    expect(knowledge?.requested_tokens).toBeGreaterThan(knowledge?.cap_tokens ?? 0);
    expect(knowledge?.tokens).toBeLessThanOrEqual(16);
    expect(narrowReport?.trims).toContainEqual(
      expect.objectContaining({ slot: 'knowledge', kind: 'dropped', reason: 'share' }),
    );
  });

  it("a conversation's context.slots setting overrides its profile's slots (spec §4.10: the policy may be overridden by the conversation)", async () => {
    const conversationId = await conversation(roomy.id);
    await server.call('PUT', '/api/settings/values', {
      layer: 'conversation',
      scope_id: conversationId,
      values: { 'context.slots': { knowledge: { priority: 4, share: 0.0004 } } },
    });
    const plan = await server.call<{ context_slots: unknown; sources: Record<string, string> }>(
      'GET',
      `/api/conversations/${conversationId}/run-plan`,
    );
    expect(plan.context_slots).toEqual({ knowledge: { priority: 4, share: 0.0004 } });
    expect(plan.sources['context.slots']).toBe('conversation');

    const [report] = await reports(await send(conversationId, 'How many days do refunds take?'));
    const knowledge = knowledgeOf(report);
    // 0.0004 of the roomy profile's model budget (40,000 − 8,000 reserved for the output): 12 tokens.
    expect(knowledge?.cap_tokens).toBeLessThan(20);
    expect(report?.trims).toContainEqual(
      expect.objectContaining({ slot: 'knowledge', kind: 'dropped', reason: 'share' }),
    );
    // The narrow profile's conversations keep the profile's own slots.
    const narrowPlan = await server.call<{ context_slots: unknown; sources: Record<string, string> }>(
      'GET',
      `/api/conversations/${await conversation(narrow.id)}/run-plan`,
    );
    expect(narrowPlan.context_slots).toEqual({ knowledge: { priority: 4, share: 0.0002 } });
    expect(narrowPlan.sources['context.slots']).toBe('profile');
  });

  it('conversation context slots adding up to more than the budget are refused with CONTEXT_SHARES_INVALID and nothing is written', async () => {
    const conversationId = await conversation(roomy.id);
    const refused = await server.request<{
      error: { code: string; details: { problems: { key: string; code: string; message: string }[] } };
    }>('PUT', '/api/settings/values', {
      body: {
        layer: 'conversation',
        scope_id: conversationId,
        values: {
          'context.slots': { knowledge: { priority: 4, share: 0.7 }, memory: { priority: 3, share: 0.5 } },
        },
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.problems).toEqual([
      expect.objectContaining({ key: 'context.slots', code: 'CONTEXT_SHARES_INVALID' }),
    ]);
    expect(refused.body.error.details.problems[0]?.message).toContain('add up to 1.2');
    const plan = await server.call<{ sources: Record<string, string> }>(
      'GET',
      `/api/conversations/${conversationId}/run-plan`,
    );
    expect(plan.sources['context.slots']).not.toBe('conversation');
  });

  it('a sub-agent is assembled by the same assembler within its own model window, and its report is stored under its run', async () => {
    scripts.add({
      match: 'Ask two helpers',
      replies: [
        {
          type: 'stream',
          steps: [
            {
              type: 'tool_call',
              name: 'spawn_agent',
              arguments: { task: 'Find the refund days, narrow', profile_id: narrow.id },
            },
            { type: 'tool_call', name: 'spawn_agent', arguments: { task: 'Find the refund days, plain' } },
          ],
        },
        fakeTextReply('Both answered.'),
      ],
    });
    scripts.add({ match: 'Find the refund days, narrow', replies: [fakeTextReply('30 days (narrow).')] });
    scripts.add({ match: 'Find the refund days, plain', replies: [fakeTextReply('30 days (plain).')] });
    const parentConversation = await conversation(roomy.id);
    const parentRun = await send(parentConversation, 'Ask two helpers about refunds');
    const nodes = allNodes(
      await server.call<AgentTree>('GET', `/api/conversations/${parentConversation}/agents`),
    );
    const narrowNode = nodes.find((node) => node.task.includes('narrow'));
    const plainNode = nodes.find((node) => node.task.includes('plain'));
    expect(narrowNode?.status).toBe('completed');
    expect(plainNode?.status).toBe('completed');

    // The parent's own report stays its own: one call per model request of the parent.
    expect((await reports(parentRun)).map((report) => report.call_index)).toEqual([0, 1]);

    // The profiled sub-agent: its profile's wide model (100,000) and its narrow knowledge share.
    const [narrowReport] = await reports(narrowNode?.run_id ?? '');
    expect(narrowReport).toMatchObject({ call_index: 0, model_id: 'small/wide', context_window: 100_000 });
    expect(narrowReport?.budget_tokens).toBe(100_000 - (narrowReport?.output_reserve_tokens ?? 0));
    expect(narrowReport?.trims).toContainEqual(
      expect.objectContaining({ slot: 'knowledge', kind: 'dropped', reason: 'share' }),
    );
    expect(narrowReport?.slots.find((slot) => slot.slot === 'current_turn')?.tokens).toBeGreaterThan(0);

    // The plain one: the parent's model (40,000) and the default policy — the passages reach it.
    const [plainReport] = await reports(plainNode?.run_id ?? '');
    expect(plainReport).toMatchObject({ call_index: 0, model_id: 'small/tiny', context_window: 40_000 });
    expect(knowledgeOf(plainReport)?.items).toBeGreaterThan(0);
    const plainRequest = server.fake.chatRequests.find((request) =>
      JSON.stringify(request.body).includes('Find the refund days, plain'),
    );
    expect(JSON.stringify(plainRequest?.body)).toContain('Refunds are granted within 30 days');
  });
});
