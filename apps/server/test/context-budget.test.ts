import type { ContextAssemblyReport } from '@youyou/contracts';
import type { AgentTree, ConversationMessage } from '@youyou/contracts';
import { fakeTextReply, fakeToolCallReply, sessionScripts, type SessionScripts } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { allNodes } from './support/agent-tree.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';

for (const kind of DATABASE_KINDS) {
  describe(`the context budget on ${kind} (issue 24)`, () => {
    let database: TestDatabase;
    let server: TestServer;
    let scripts: SessionScripts;

    const profileFor = async (model: string, systemPrompt = ''): Promise<string> =>
      (
        await server.call<{ id: string }>('POST', '/api/profiles', {
          name: `Window ${model}`,
          systemPrompt,
          model: { id: `small/${model}` },
          parameters: {},
          tools: { allow: ['*'], deny: [], confirm: [] },
          context: { policy: 'no-compaction' },
          hitl: { askOnAmbiguity: false, timeoutSec: null },
          budget: {},
        })
      ).id;
    const send = async (profileId: string, text: string) => {
      const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {
        profile_id: profileId,
      });
      const sent = await server.call<{ run: { id: string } }>(
        'POST',
        `/api/conversations/${conversation.id}/messages`,
        { text },
      );
      await server.settled(conversation.id, sent.run.id);
      const run = await server.call<{ status: string; error?: { code: string; message: string } | null }>(
        'GET',
        `/api/runs/${sent.run.id}`,
      );
      const { reports } = await server.call<{ reports: ContextAssemblyReport[] }>(
        'GET',
        `/api/runs/${sent.run.id}/context`,
      );
      return { run, reports };
    };

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      scripts = sessionScripts([], () => fakeTextReply('hello'));
      server = await startTestServer({ database, fake: { fallback: (request) => scripts.reply(request) } });
      await server.call('POST', '/api/providers', {
        name: 'small',
        kind: 'openai-compatible',
        base_url: server.fake.url,
        models: [
          { id: 'four-k', context_window: 4_000 },
          { id: 'three-k', context_window: 3_000 },
          { id: 'tiny', context_window: 300 },
        ],
      });
    });

    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    it('a 4,000-token model with every built-in tool on answers "hi": the request fits whole, every tool sent, nothing cut', async () => {
      const { run, reports } = await send(await profileFor('four-k'), 'hi');
      expect(run.status).toBe('completed');
      const [report] = reports;
      expect(report?.over_budget).toBe(false);
      expect(report?.total_tokens).toBeLessThanOrEqual(report?.budget_tokens ?? 0);
      expect(report?.trims).toEqual([]);
      const sent = server.fake.chatRequests.at(-1)?.body as { tools?: unknown[] };
      expect(sent.tools?.length ?? 0).toBeGreaterThan(10);
    });

    it('a 3,000-token model answers "hi" with the tool descriptions shortened, and the report lists the cut', async () => {
      const whole = server.fake.chatRequests.at(-1)?.body as { tools?: unknown[] };
      const { run, reports } = await send(await profileFor('three-k'), 'hi');
      expect(run.status).toBe('completed');
      const [report] = reports;
      expect(report?.over_budget).toBe(false);
      expect(report?.total_tokens).toBeLessThanOrEqual(report?.budget_tokens ?? 0);
      const cuts = report?.trims.filter((trim) => trim.slot === 'system') ?? [];
      expect(cuts.length).toBeGreaterThan(0);
      for (const cut of cuts) expect(cut.tokens_after).toBeLessThan(cut.tokens_before);
      const sent = server.fake.chatRequests.at(-1)?.body as { tools?: unknown[] };
      expect(JSON.stringify(sent.tools).length).toBeLessThan(JSON.stringify(whole.tools).length);
    });

    it("a 300-token window that the profile's own instructions overflow fails the run with CONTEXT_BUDGET_EXCEEDED and the model receives no request", async () => {
      const before = server.fake.chatRequests.length;
      // The profile's instructions are never cut; every tool can be dropped, and is.
      const instructions = 'Answer in the voice of a patient teacher. '.repeat(30);
      const { run, reports } = await send(await profileFor('tiny', instructions), 'hi');
      expect(run.status).toBe('failed');
      expect(run.error?.code).toBe('CONTEXT_BUDGET_EXCEEDED');
      expect(run.error?.message).toContain("context window of 'small/tiny'");
      expect(run.error?.message).toContain('the system prompt and tools');
      expect(server.fake.chatRequests.length).toBe(before);
      expect(reports[0]?.over_budget).toBe(true);
      expect(reports[0]?.trims.some((trim) => trim.slot === 'system' && trim.kind === 'dropped')).toBe(true);
    });

    it("a sub-agent whose model window is too small fails with CONTEXT_BUDGET_EXCEEDED, and the parent gets it as the spawn tool's error and goes on", async () => {
      const instructions = 'Answer in the voice of a patient teacher. '.repeat(30);
      const tinyProfile = await profileFor('tiny', instructions);
      scripts.add({
        match: 'Ask the tiny helper',
        replies: [
          fakeToolCallReply('spawn_agent', { task: 'Say hi, tiny helper', profile_id: tinyProfile }),
          fakeTextReply('The helper could not start.'),
        ],
      });
      scripts.add({ match: 'Say hi, tiny helper', replies: [fakeTextReply('never sent')] });
      const { conversationId, runId } = await sendFirstMessage(server, 'Ask the tiny helper');
      const view = await server.settled(conversationId, runId);

      // The parent's run completes: the sub-agent's failure is a tool result, not a crash or a hang.
      const parent = await server.call<{ status: string }>('GET', `/api/runs/${runId}`);
      expect(parent.status).toBe('completed');
      const answer = view.messages.at(-1) as ConversationMessage;
      expect(answer.status).toBe('complete');
      const result = answer.parts.find((part) => part.type === 'tool_result');
      expect(result).toMatchObject({ tool_name: 'spawn_agent', is_error: true });
      expect(result?.type === 'tool_result' ? result.output : '').toMatch(
        /^Error \[CONTEXT_BUDGET_EXCEEDED\]: .*context window of 'small\/tiny'/,
      );
      expect(JSON.stringify(answer.parts)).toContain('The helper could not start.');

      // The sub-agent's run failed with the code, and its request never reached the model.
      const [node] = allNodes(
        await server.call<AgentTree>('GET', `/api/conversations/${conversationId}/agents`),
      );
      expect(node).toMatchObject({ status: 'failed', error: { code: 'CONTEXT_BUDGET_EXCEEDED' } });
      const child = await server.call<{ status: string; error?: { code: string } | null }>(
        'GET',
        `/api/runs/${node?.run_id ?? ''}`,
      );
      expect(child).toMatchObject({ status: 'failed', error: { code: 'CONTEXT_BUDGET_EXCEEDED' } });
      expect(scripts.remaining['Say hi, tiny helper']).toBe(1);
      const { reports } = await server.call<{ reports: ContextAssemblyReport[] }>(
        'GET',
        `/api/runs/${node?.run_id ?? ''}/context`,
      );
      expect(reports[0]).toMatchObject({ model_id: 'small/tiny', over_budget: true });
    });
  });
}
