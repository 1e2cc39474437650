import { defineTool, type ToolHandler } from '@youyou/agent';
import { textReply, toolCallReply } from '@youyou/testing';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { collect, ofType, testAgent } from './helpers.ts';

// The README's example: a zod schema, arguments inferred from it.
const weather = defineTool({
  name: 'get_weather',
  description: 'The current weather in a city.',
  mutating: false,
  parameters: z.object({
    city: z.string().min(1).describe('City name, e.g. "Paris"'),
    unit: z.enum(['c', 'f']).default('c'),
  }),
  execute: ({ city, unit }) => {
    expectTypeOf(city).toEqualTypeOf<string>();
    expectTypeOf(unit).toEqualTypeOf<'c' | 'f'>();
    return `It is 21°${unit.toUpperCase()} in ${city}.`;
  },
});

describe('defineTool (typed tools)', () => {
  it('a zod tool sends the JSON Schema derived from the schema to the model', async () => {
    const { agent, provider } = await testAgent({ tools: [weather] });
    provider.enqueue(textReply('ok'));
    await collect((await agent.newSession()).send('hi'));
    const sent = provider.requests[0]?.tools[0];
    expect(sent?.name).toBe('get_weather');
    expect(sent?.parameters).toMatchObject({
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1, description: 'City name, e.g. "Paris"' },
        unit: { enum: ['c', 'f'], default: 'c' },
      },
      required: ['city'],
    });
    expect(sent?.parameters).not.toHaveProperty('$schema');
  });

  it('a zod tool runs with the parsed arguments: defaults applied, the string result as content', async () => {
    const { agent, provider } = await testAgent({ tools: [weather] });
    provider.enqueue(
      toolCallReply([{ toolName: 'get_weather', arguments: { city: 'Paris' } }]),
      textReply('ok'),
    );
    const events = await collect((await agent.newSession()).send('weather?'));
    expect(ofType(events, 'ToolCallEnd')[0]).toMatchObject({
      success: true,
      output: 'It is 21°C in Paris.',
      arguments: { city: 'Paris', unit: 'c' },
    });
  });

  it('arguments the schema rejects never reach execute: the model gets INVALID_INPUT with the path', async () => {
    let ran = false;
    const strict = defineTool({
      name: 'strict',
      description: 'Needs a positive count.',
      mutating: false,
      parameters: z.object({ count: z.number().int().positive() }),
      execute: ({ count }) => ((ran = true), String(count)),
    });
    const { agent, provider } = await testAgent({ tools: [strict] });
    provider.enqueue(toolCallReply([{ toolName: 'strict', arguments: { count: -2 } }]), textReply('ok'));
    const events = await collect((await agent.newSession()).send('go'));
    expect(ran).toBe(false);
    expect(ofType(events, 'ToolCallEnd')[0]?.output).toMatch(/INVALID_INPUT.*arguments\/count/);
  });

  it('a plain JSON Schema tool keeps working through defineTool and as a bare ToolHandler', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes text.',
      mutating: false,
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: (args) => ({ content: String(args['text']) }),
    });
    const bare: ToolHandler = {
      name: 'bare',
      description: 'A bare handler.',
      mutating: false,
      parameters: { type: 'object', properties: {} },
      execute: () => ({ content: 'bare ok' }),
    };
    const { agent, provider } = await testAgent({ tools: [echo, bare] });
    provider.enqueue(
      toolCallReply([
        { toolName: 'echo', arguments: { text: 'hi' }, callId: 'a' },
        { toolName: 'echo', arguments: { text: 3 }, callId: 'b' },
        { toolName: 'bare', callId: 'c' },
      ]),
      textReply('ok'),
    );
    const events = await collect((await agent.newSession()).send('go'));
    const ends = ofType(events, 'ToolCallEnd').sort((x, y) => x.callId.localeCompare(y.callId));
    expect(ends.map((end) => [end.success, end.output])).toEqual([
      [true, 'hi'],
      [false, expect.stringMatching(/INVALID_INPUT/)],
      [true, 'bare ok'],
    ]);
  });

  it('a schema that cannot describe itself as JSON Schema needs jsonSchema, else defineTool says so', () => {
    const opaque = {
      '~standard': {
        version: 1 as const,
        vendor: 'opaque',
        validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
      },
    };
    expect(() =>
      defineTool({ name: 'o', description: 'o', mutating: false, parameters: opaque, execute: () => 'x' }),
    ).toThrow(/cannot convert itself to JSON Schema; pass `jsonSchema`/);
    const given = defineTool({
      name: 'o',
      description: 'o',
      mutating: false,
      parameters: opaque,
      jsonSchema: { type: 'object', properties: {} },
      execute: () => 'x',
    });
    expect(given.parameters).toEqual({ type: 'object', properties: {} });
  });
});
