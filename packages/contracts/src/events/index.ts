export { CONVERSATION_EVENT_PAYLOAD_SCHEMAS, RUN_EVENT_PAYLOAD_SCHEMAS } from './payloads.ts';
export { EVENT_PAYLOAD_SCHEMAS } from './registry.ts';
export type { EventPayloads, WorkbenchEventType } from './registry.ts';
export { EVENT_VERSION, EventEnvelopeSchema, WorkbenchEventSchema, parseEvent } from './envelope.ts';
export { WORKBENCH_EVENT_TYPES, isKnownEventType } from './event-types.ts';
export type { EventEnvelope, EventOfType, NewEvent, WorkbenchEvent } from './envelope.ts';
export { INTERNAL_EVENT_TYPES } from './event-sets.ts';
