import type { Provider, Usage } from '@youyou/contracts';
import type { FakeStreamReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';

const PRICING = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };

function replyWithUsage(
  text: string,
  usage: { inputTokens: number; outputTokens: number; cachedInputTokens?: number; cacheWriteTokens?: number },
): FakeStreamReply {
  return {
    type: 'stream',
    steps: [
      { type: 'text', text },
      { type: 'usage', ...usage },
    ],
  };
}

async function setPricing(server: TestServer, pricing: typeof PRICING | undefined): Promise<void> {
  const [provider] = (await server.call<{ providers: Provider[] }>('GET', '/api/providers')).providers;
  if (provider === undefined) throw new Error('no provider');
  await server.call('PATCH', `/api/providers/${provider.id}`, {
    models: provider.models.map((model) =>
      pricing === undefined ? { ...model, pricing: undefined } : { ...model, pricing },
    ),
  });
}

function modelTotal(usage: Usage) {
  const total = usage.totals.find((entry) => entry.key === 'fake/fake-model');
  if (total === undefined) throw new Error(`no fake/fake-model total in ${JSON.stringify(usage)}`);
  return total;
}

describe.each(DATABASE_KINDS)('usage prices and cache tokens on %s', (kind) => {
  describe.each(['openai', 'anthropic'] as const)('over the %s wire', (wire) => {
    let database: TestDatabase;
    let server: TestServer;

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      server = await startTestServer({ database, wire });
    });

    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    it('a priced model gives each run a cost from its input, cached, cache-written and output tokens', async () => {
      await setPricing(server, PRICING);
      // OpenAI counts cached tokens inside prompt_tokens; Anthropic reports them beside input_tokens.
      server.fake.push(
        wire === 'openai'
          ? replyWithUsage('Priced.', { inputTokens: 10_000, cachedInputTokens: 6_000, outputTokens: 2_000 })
          : replyWithUsage('Priced.', {
              inputTokens: 1_000,
              cachedInputTokens: 6_000,
              cacheWriteTokens: 3_000,
              outputTokens: 2_000,
            }),
      );
      const sent = await sendFirstMessage(server, 'What does this cost?');
      await server.settled(sent.conversationId, sent.runId);
      const usage = await server.call<Usage>('GET', '/api/usage?group_by=model');
      const total = modelTotal(usage);
      const expected =
        wire === 'openai'
          ? { input: 10_000, read: 6_000, write: 0, cost: (4_000 * 3 + 6_000 * 0.3 + 2_000 * 15) / 1e6 }
          : {
              input: 10_000,
              read: 6_000,
              write: 3_000,
              cost: (1_000 * 3 + 6_000 * 0.3 + 3_000 * 3.75 + 2_000 * 15) / 1e6,
            };
      expect(total).toMatchObject({
        runs: 1,
        input_tokens: expected.input,
        output_tokens: 2_000,
        cache_read_tokens: expected.read,
        cache_write_tokens: expected.write,
        unpriced_runs: 0,
      });
      expect(total.cost).toBeCloseTo(expected.cost, 10);
      // The run itself carries its cache tokens.
      const run = await server.call<{ usage: Record<string, number> }>('GET', `/api/runs/${sent.runId}`);
      expect(run.usage).toMatchObject({ cache_read_tokens: expected.read });
    });

    it("a conversation's usage counts only its own runs, and a model without prices leaves the cost unknown", async () => {
      await setPricing(server, undefined);
      server.fake.push(replyWithUsage('Unpriced.', { inputTokens: 500, outputTokens: 100 }));
      const sent = await sendFirstMessage(server, 'And this one?');
      await server.settled(sent.conversationId, sent.runId);
      const own = await server.call<Usage>('GET', `/api/conversations/${sent.conversationId}/usage`);
      expect(own.group_by).toBe('model');
      expect(modelTotal(own)).toMatchObject({
        runs: 1,
        input_tokens: 500,
        output_tokens: 100,
        cache_read_tokens: 0,
        cost: null,
        unpriced_runs: 1,
      });
      const all = modelTotal(await server.call<Usage>('GET', '/api/usage?group_by=model'));
      expect(all.runs).toBe(2);
      expect(all.unpriced_runs).toBe(1);
      expect(all.cost).toBeGreaterThan(0);
      const byDay = await server.call<Usage>(
        'GET',
        `/api/conversations/${sent.conversationId}/usage?group_by=day`,
      );
      expect(byDay.totals).toHaveLength(1);
      expect(byDay.totals[0]?.key).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    });

    it('bad prices and unknown conversations are clear errors', async () => {
      const [provider] = (await server.call<{ providers: Provider[] }>('GET', '/api/providers')).providers;
      const bad = await server.request('PATCH', `/api/providers/${provider?.id ?? ''}`, {
        body: { models: [{ id: 'fake-model', pricing: { input: -1, output: 2 } }] },
      });
      expect(bad).toMatchObject({ status: 400, body: { error: { code: 'INVALID_INPUT' } } });
      expect(await server.request('GET', '/api/conversations/nope/usage')).toMatchObject({
        status: 404,
        body: { error: { code: 'NOT_FOUND' } },
      });
    });
  });
});
