import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { jsonSchemas } from '../src/index.ts';
import { eventLog } from './fixtures.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const compile = (name: string) => {
  const schema = jsonSchemas()[name];
  if (schema === undefined) throw new Error(`no JSON Schema named ${name}`);
  return ajv.compile(schema);
};

describe('the contract as JSON Schema', () => {
  it('names a document for the envelope, every known event, messages, runs and the API bodies', () => {
    expect(Object.keys(jsonSchemas())).toEqual(
      expect.arrayContaining([
        'EventEnvelope',
        'WorkbenchEvent',
        'ConversationMessage',
        'MessagePart',
        'Run',
        'RunDescription',
        'ConversationView',
        'SendMessage',
        'SendResult',
        'ErrorBody',
      ]),
    );
  });

  it('accepts the events the projection is tested with, and rejects a known type with a broken payload', () => {
    const { numbered, created } = eventLog();
    const validate = compile('WorkbenchEvent');
    const events = [
      created('r1'),
      numbered({ run_id: 'r1', type: 'message.delta', payload: { message_id: 'r1', text: 'Hi' } }),
      numbered({
        run_id: 'r1',
        type: 'run.failed',
        payload: { message_id: 'r1', error: { code: 'PROVIDER_ERROR', message: 'boom', retryable: true } },
      }),
    ];
    for (const event of events)
      expect(validate(JSON.parse(JSON.stringify(event))), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...events[1], payload: { message_id: 'r1' } })).toBe(false);
  });

  it('lets a non-TypeScript consumer check the envelope of any event, unknown types included', () => {
    const validate = compile('EventEnvelope');
    expect(
      validate({
        seq: 9,
        run_id: null,
        conversation_id: 'c',
        ts: '2026-01-01T00:00:00.000Z',
        v: 1,
        type: 'x.y',
        payload: {},
      }),
    ).toBe(true);
    expect(validate({ seq: 'nine', type: 'x.y' })).toBe(false);
  });

  it('describes a request body as the server accepts it', () => {
    const validate = compile('SendMessage');
    expect(validate({ text: 'Hello', skills: [{ name: 'review' }] })).toBe(true);
    expect(validate({ text: 42 })).toBe(false);
  });
});
