import type { z } from 'zod';
import { AGENT_EVENT_PAYLOAD_SCHEMAS } from '../agents/index.ts';
import { ARTIFACT_EVENT_PAYLOAD_SCHEMAS } from '../artifacts/index.ts';
import { DOCUMENT_EVENT_PAYLOAD_SCHEMAS } from '../documents/index.ts';
import { HITL_EVENT_PAYLOAD_SCHEMAS } from '../hitl/index.ts';
import { PLAN_EVENT_PAYLOAD_SCHEMAS } from '../plan/index.ts';
import { UI_CARD_EVENT_PAYLOAD_SCHEMAS } from '../ui-schema/index.ts';
import { MEMORY_EVENT_PAYLOAD_SCHEMAS } from '../memory/index.ts';
import type { WORKBENCH_EVENT_TYPES } from './event-types.ts';
import { CONVERSATION_EVENT_PAYLOAD_SCHEMAS, RUN_EVENT_PAYLOAD_SCHEMAS } from './payloads.ts';

/**
 * Every event type the contract knows, with its payload schema. To add event types, export a map
 * of them from your concept's folder and spread it here; the types, the envelope schema, the JSON
 * Schema and `isKnownEventType` follow from this one object.
 *
 * @example
 * Object.keys(EVENT_PAYLOAD_SCHEMAS); // ['run.created', 'run.phase', …]
 */
export const EVENT_PAYLOAD_SCHEMAS = {
  ...RUN_EVENT_PAYLOAD_SCHEMAS,
  ...CONVERSATION_EVENT_PAYLOAD_SCHEMAS,
  ...ARTIFACT_EVENT_PAYLOAD_SCHEMAS,
  ...AGENT_EVENT_PAYLOAD_SCHEMAS,
  ...HITL_EVENT_PAYLOAD_SCHEMAS,
  ...PLAN_EVENT_PAYLOAD_SCHEMAS,
  ...UI_CARD_EVENT_PAYLOAD_SCHEMAS,
  ...MEMORY_EVENT_PAYLOAD_SCHEMAS,
  ...DOCUMENT_EVENT_PAYLOAD_SCHEMAS,
} as const;

type PayloadSchemas = typeof EVENT_PAYLOAD_SCHEMAS;

/** The payload of each event type. */
export type EventPayloads = { [Type in keyof PayloadSchemas]: z.infer<PayloadSchemas[Type]> };

export type WorkbenchEventType = keyof EventPayloads;

// The names-only list (event-types.ts) and this registry name exactly the same types: a type added
// to one and not the other fails the build here.
type NamedTypes = (typeof WORKBENCH_EVENT_TYPES)[number];
const sameEventTypes: [NamedTypes] extends [WorkbenchEventType]
  ? [WorkbenchEventType] extends [NamedTypes]
    ? true
    : false
  : false = true;
void sameEventTypes;
