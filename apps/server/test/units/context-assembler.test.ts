import type { ChatRequest, Message } from '@youyou/agent';
import { DEFAULT_CONTEXT_ASSEMBLY_POLICY } from '@youyou/contracts';
import { describe, expect, it } from 'vitest';
import { assembleRequest } from '../../src/context/index.ts';
import { rankForInjection, termsOf } from '../../src/memory/index.ts';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): Message => ({
  role: 'assistant',
  content: text,
  toolCalls: [],
  status: 'complete',
});
const request = (messages: Message[], systemPrompt = 'You are helpful.'): ChatRequest => ({
  model: 'tiny',
  systemPrompt,
  messages,
  tools: [],
});
const words = (count: number, word = 'word'): string => `${word} `.repeat(count);

describe('context assembly (spec §4.10)', () => {
  it('sends everything untouched when it fits, and reports tokens per slot', () => {
    const { request: assembled, report } = assembleRequest({
      request: request([user('hello'), assistant('hi'), user('how are you?')]),
      model: { id: 'tiny', contextWindow: 8_000 },
    });
    expect(assembled.messages).toHaveLength(3);
    expect(report.trims).toEqual([]);
    expect(report.budget_tokens).toBe(8_000 - 2_000);
    expect(report.slots.map((slot) => slot.slot)).toEqual([
      'system',
      'memory',
      'knowledge',
      'history',
      'current_turn',
      'tool_results',
    ]);
    expect(report.slots.find((slot) => slot.slot === 'history')).toMatchObject({ items: 2, tokens: 3 });
    expect(report.over_budget).toBe(false);
  });

  it('over budget, drops the oldest exchanges first and keeps the current turn whole', () => {
    const history = [
      user(words(1_500, 'old')),
      assistant(words(1_500, 'old')),
      user(words(200, 'mid')),
      assistant('ok'),
    ];
    const { request: assembled, report } = assembleRequest({
      request: request([...history, user('and now?')]),
      model: { id: 'tiny', contextWindow: 2_400 }, // budget 1,800
    });
    // The first exchange (3,000 tokens) leaves; the second stays.
    expect(assembled.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(report.trims).toEqual([
      expect.objectContaining({
        slot: 'history',
        kind: 'dropped',
        reason: 'budget',
        item: '2 oldest messages',
      }),
    ]);
    expect(assembled.systemPrompt).toContain('Earlier messages of this conversation were left out');
    expect(report.total_tokens).toBeLessThanOrEqual(report.budget_tokens);
  });

  it('trims by priority: history first, then knowledge, then memory, then attachments become excerpts', () => {
    const attachment = `<document id="doc_7" name="report.pdf">\n${words(3_000, 'data')}\n</document>`;
    const { request: assembled, report } = assembleRequest({
      request: request([
        user(words(400, 'history')),
        assistant('noted'),
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Summarise the report' },
            { type: 'text', text: attachment },
          ],
        },
      ]),
      model: { id: 'tiny', contextWindow: 4_000 }, // budget 3,000
      injections: {
        memory: [{ id: 'm1', text: 'Prefers short answers' }],
        knowledge: [{ id: 'c1', text: 'Quarterly revenue rose 4 %' }],
      },
    });
    const order = report.trims.map((trim) => `${trim.slot}:${trim.kind}`);
    expect(order).toEqual([
      'history:dropped',
      'knowledge:dropped',
      'memory:dropped',
      'current_turn:excerpted',
    ]);
    const excerpt = report.trims.at(-1);
    expect(excerpt).toMatchObject({
      item: 'attachment report.pdf',
      note: 'use read_document doc_7',
      reason: 'budget',
    });
    const sent = assembled.messages.at(-1);
    expect(sent?.role).toBe('user');
    const texts =
      sent?.role === 'user' ? sent.content.map((block) => (block.type === 'text' ? block.text : '')) : [];
    expect(texts[0]).toBe('Summarise the report');
    expect(texts[1]).toContain('use read_document doc_7 to read the rest');
    expect(report.total_tokens).toBeLessThanOrEqual(report.budget_tokens);
  });

  it('a long history loses its oldest exchanges before memory and knowledge lose anything', () => {
    const { request: assembled, report } = assembleRequest({
      request: request([
        user(words(4_000, 'old')),
        assistant('ok'),
        user(words(200, 'recent')),
        assistant('ok'),
        user('now?'),
      ]),
      model: { id: 'tiny', contextWindow: 4_000 },
      injections: {
        memory: [{ id: 'm1', text: 'Prefers short answers' }],
        knowledge: [{ id: 'c1', text: 'Revenue rose' }],
      },
    });
    expect(report.trims.map((trim) => trim.slot)).toEqual(['history']);
    expect(assembled.systemPrompt).toContain('Prefers short answers');
    expect(assembled.systemPrompt).toContain('Revenue rose');
    expect(JSON.stringify(assembled.messages)).toContain('recent');
  });

  it('holds memory and knowledge to their shares whatever room is left, weakest items first', () => {
    const memory = Array.from({ length: 40 }, (_, index) => ({
      id: `m${index}`,
      text: words(20, `fact${index}`),
    }));
    const { request: assembled, report } = assembleRequest({
      request: request([user('hi')]),
      model: { id: 'big', contextWindow: 20_000 }, // budget 15,000; memory share 5 % = 750
      injections: { memory, knowledge: [] },
    });
    const slot = report.slots.find((entry) => entry.slot === 'memory');
    expect(slot?.cap_tokens).toBe(750);
    expect(slot?.tokens).toBeLessThanOrEqual(750);
    expect(slot?.items).toBeGreaterThan(0);
    const dropped = report.trims.filter((trim) => trim.slot === 'memory');
    expect(dropped.every((trim) => trim.reason === 'share')).toBe(true);
    expect(dropped[0]?.item).toBe('memory m39');
    expect(assembled.systemPrompt).toContain('fact0');
    expect(assembled.systemPrompt).not.toContain('fact39');
  });

  it('cuts long tool results of the current turn to head and tail, and never separates a call from its result', () => {
    const long = `BEGIN ${'x'.repeat(60_000)} END`;
    const { request: assembled, report } = assembleRequest({
      request: request([
        user('look it up'),
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ callId: 'c1', toolName: 'lookup', arguments: '{}' }],
          status: 'complete',
        },
        { role: 'tool', callId: 'c1', toolName: 'lookup', content: long, isError: false },
      ]),
      model: { id: 'tiny', contextWindow: 12_000 },
    });
    const tool = assembled.messages.at(-1);
    expect(tool?.role).toBe('tool');
    const content = tool?.role === 'tool' ? tool.content : '';
    expect(content.startsWith('BEGIN')).toBe(true);
    expect(content.endsWith('END')).toBe(true);
    expect(content).toContain('the middle was left out');
    expect(report.trims).toEqual([
      expect.objectContaining({ slot: 'tool_results', kind: 'excerpted', reason: 'budget' }),
    ]);
  });

  it("counts a tool result's images, and over budget drops them (oldest first) before any text is cut", () => {
    const image = { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' } as const;
    const shot = (callId: string): Message[] => [
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ callId, toolName: 'screenshot', arguments: '{}' }],
        status: 'complete',
      },
      {
        role: 'tool',
        callId,
        toolName: 'screenshot',
        content: '[image: image/png, 8 B]',
        isError: false,
        images: [image],
      },
    ];
    const messages = [user('take two screenshots'), ...shot('c1'), ...shot('c2')];
    const roomy = assembleRequest({ request: request(messages), model: { id: 'm', contextWindow: 16_000 } });
    expect(roomy.report.slots.find((slot) => slot.slot === 'tool_results')?.tokens).toBeGreaterThan(3_200);
    expect(roomy.report.trims).toEqual([]);

    // Budget 3,000 (a quarter of the window is the output reserve): one image (1,600 tokens) fits
    // beside the rest, two do not.
    const { request: assembled, report } = assembleRequest({
      request: request(messages),
      model: { id: 'm', contextWindow: 4_000 },
    });
    const results = assembled.messages.filter((message) => message.role === 'tool');
    expect(results.map((message) => message.images?.length ?? 0)).toEqual([0, 1]);
    expect(results.map((message) => message.content)).toEqual([
      '[image: image/png, 8 B]',
      '[image: image/png, 8 B]',
    ]);
    expect(report.trims).toEqual([
      expect.objectContaining({
        slot: 'tool_results',
        kind: 'dropped',
        reason: 'budget',
        item: 'image of tool result screenshot (message 3)',
        tokens_before: 1_600,
        tokens_after: 0,
      }),
    ]);
    expect(report.over_budget).toBe(false);
  });

  it('reads the policy as data: a smaller history share trims history even when the window has room', () => {
    const policy = {
      ...DEFAULT_CONTEXT_ASSEMBLY_POLICY,
      slots: { ...DEFAULT_CONTEXT_ASSEMBLY_POLICY.slots, history: { priority: 3, share: 0.05 } },
    };
    const { report } = assembleRequest({
      request: request([user(words(2_000)), assistant('ok'), user('next')]),
      model: { id: 'big', contextWindow: 40_000 },
      policy,
    });
    expect(report.trims).toEqual([expect.objectContaining({ slot: 'history', reason: 'share' })]);
  });
});

describe('memory ranking (spec §4.13 read path)', () => {
  it('matches Chinese by character pairs and Latin by words', () => {
    expect(termsOf('Prefers 中文回答')).toEqual(new Set(['prefers', '中文', '文回', '回答']));
  });

  it('puts relevant memories first, then recent ones, and leaves expired ones out', () => {
    const now = Date.parse('2026-06-01T00:00:00Z');
    const item = (id: string, content: string, updated: string, expires: string | null = null) => ({
      id,
      scope: 'user' as const,
      project_id: null,
      type: 'fact' as const,
      content,
      source: 'manual' as const,
      source_run_id: null,
      confidence: 1,
      tags: [],
      created_at: updated,
      updated_at: updated,
      last_accessed_at: null,
      expires_at: expires,
    });
    const ranked = rankForInjection(
      [
        item('old-relevant', 'The quarterly report uses metric units', '2025-01-01T00:00:00Z'),
        item('new-unrelated', 'Likes green tea', '2026-05-31T00:00:00Z'),
        item('expired', 'The quarterly report is due Friday', '2026-05-31T00:00:00Z', '2026-05-01T00:00:00Z'),
        item('cn', '季度报告用公制单位', '2026-01-01T00:00:00Z'),
      ],
      'write the quarterly report',
      now,
    );
    expect(ranked.map((memory) => memory.id)).toEqual(['old-relevant', 'new-unrelated', 'cn']);
    expect(
      rankForInjection(
        [item('cn', '季度报告用公制单位', '2025-01-01T00:00:00Z'), item('x', 'tea', '2026-05-31T00:00:00Z')],
        '写季度报告',
        now,
      )[0]?.id,
    ).toBe('cn');
  });
});

describe('the system slot under the budget (issue 24)', () => {
  const tool = (name: string, size: number) => ({
    name,
    description: `Does ${name}. ${'More detail about it. '.repeat(size)}`,
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  });
  const withTools = (count: number, size: number): ChatRequest => ({
    ...request([user('hi')]),
    tools: Array.from({ length: count }, (_, index) => tool(`tool_${index}`, size)),
  });

  it('over budget, tool descriptions are cut to their first sentence before any tool is dropped', () => {
    const { request: assembled, report } = assembleRequest({
      request: withTools(10, 40),
      model: { id: 'tiny', contextWindow: 1_600 }, // budget 1,200; the tools need ~2,300
    });
    expect(assembled.tools).toHaveLength(10);
    expect(assembled.tools[0]?.description).toBe('Does tool_0.');
    expect(report.trims).toEqual([
      expect.objectContaining({ slot: 'system', kind: 'excerpted', item: 'descriptions of 10 tools' }),
    ]);
    expect(report.over_budget).toBe(false);
  });

  it('when short descriptions are not enough, the last-listed tools are dropped and the model is told', () => {
    const { request: assembled, report } = assembleRequest({
      request: withTools(10, 40),
      model: { id: 'tiny', contextWindow: 400 }, // budget 300
    });
    expect(assembled.tools.length).toBeLessThan(10);
    expect(assembled.tools[0]?.name).toBe('tool_0');
    const dropped = report.trims.filter((trim) => trim.slot === 'system' && trim.kind === 'dropped');
    expect(dropped[0]?.item).toBe('tool tool_9');
    expect(assembled.systemPrompt).toContain('These tools were left out of this request');
    expect(assembled.systemPrompt).toContain('tool_9');
    expect(report.total_tokens).toBeLessThanOrEqual(report.budget_tokens);
    expect(report.tools_tokens).toBeLessThan(report.slots[0]?.requested_tokens ?? 0);
  });

  it('a request that cannot fit even with every tool gone is reported over budget', () => {
    const { report } = assembleRequest({
      request: { ...withTools(3, 1), systemPrompt: words(400) },
      model: { id: 'tiny', contextWindow: 300 },
    });
    expect(report.over_budget).toBe(true);
    expect(report.trims.filter((trim) => trim.kind === 'dropped')).toHaveLength(3);
  });
});
