import { describe, expect, it } from 'vitest';
import {
  EVENT_PAYLOAD_SCHEMAS,
  EVENT_VERSION,
  INTERNAL_EVENT_TYPES,
  isKnownEventType,
  parseEvent,
  WORKBENCH_EVENT_TYPES,
} from '../src/index.ts';
import { eventLog } from './fixtures.ts';

describe('events on the wire', () => {
  it('a known event parses to its typed form', () => {
    const { created } = eventLog();
    const event = parseEvent(JSON.parse(JSON.stringify(created('r1'))));
    expect(event?.type).toBe('run.created');
    if (event?.type === 'run.created') expect(event.payload.run.id).toBe('r1');
  });

  it('an event of a type this contract does not know is skipped, not an error', () => {
    const value = {
      seq: 7,
      run_id: null,
      conversation_id: 'c',
      ts: '2026-01-01T00:00:00.000Z',
      v: EVENT_VERSION,
      type: 'hologram.shown',
      payload: { colour: 'blue' },
    };
    expect(parseEvent(value)).toBeUndefined();
    expect(isKnownEventType('hologram.shown')).toBe(false);
  });

  it('the names-only list of event types (what a browser loads) is every type with a schema', () => {
    expect([...WORKBENCH_EVENT_TYPES].sort()).toEqual(Object.keys(EVENT_PAYLOAD_SCHEMAS).sort());
    for (const type of WORKBENCH_EVENT_TYPES) expect(isKnownEventType(type)).toBe(true);
  });

  it('a known type with a payload that breaks its schema is rejected', () => {
    const { numbered } = eventLog();
    const event = numbered({ run_id: 'r1', type: 'message.delta', payload: { message_id: 'r1', text: 'x' } });
    expect(() => parseEvent({ ...event, payload: { message_id: 'r1' } })).toThrow();
  });

  it('a field a newer server added to a known payload is tolerated', () => {
    const { numbered } = eventLog();
    const event = numbered({ run_id: 'r1', type: 'message.delta', payload: { message_id: 'r1', text: 'x' } });
    expect(parseEvent({ ...event, payload: { ...event.payload, tokens: 1 } })?.type).toBe('message.delta');
  });

  it('every internal type is a registered type', () => {
    for (const type of INTERNAL_EVENT_TYPES) expect(Object.keys(EVENT_PAYLOAD_SCHEMAS)).toContain(type);
  });
});
