import { z } from 'zod';
import { IsoDateSchema } from '../runs/index.ts';
import { isKnownEventType } from './event-types.ts';
import { EVENT_PAYLOAD_SCHEMAS, type EventPayloads, type WorkbenchEventType } from './registry.ts';

/**
 * The version of the event envelope and payloads (spec §5). Versions only add: a field keeps its
 * meaning forever, new fields and new event types may appear within the same `v`, and a consumer
 * ignores what it does not know. `v` rises only if a meaning ever had to change.
 *
 * @example
 * if (event.v > EVENT_VERSION) showUpgradeHint();
 */
export const EVENT_VERSION = 1;

/**
 * The envelope every event shares (spec §4.2), whatever its type: the shape to check before
 * looking at `type`. `seq` orders a conversation's events and is the SSE `id` for resume.
 *
 * @example
 * const envelope = EventEnvelopeSchema.parse(JSON.parse(data));
 * if (!isKnownEventType(envelope.type)) return; // a newer server's event: ignored
 */
export const EventEnvelopeSchema = z
  .object({
    seq: z.number().int().nonnegative(),
    run_id: z.string().nullable(),
    conversation_id: z.string(),
    ts: IsoDateSchema,
    v: z.number().int().positive(),
    type: z.string(),
    // Each known type's payload is checked by WorkbenchEventSchema; the envelope takes any object.
    payload: z.record(z.string(), z.any()),
  })
  .meta({ id: 'Event', description: 'An event; unknown types are ignored (spec §5).' });
export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;

/**
 * An event of a type this contract knows, discriminated on `type`.
 *
 * @example
 * if (event.type === 'message.delta') append(event.payload.text);
 */
export type WorkbenchEvent = {
  [Type in WorkbenchEventType]: Omit<EventEnvelope, 'type' | 'payload'> & {
    type: Type;
    payload: EventPayloads[Type];
  };
}[WorkbenchEventType];

/** The event of one type. */
export type EventOfType<Type extends WorkbenchEventType> = Extract<WorkbenchEvent, { type: Type }>;

/** An event before the log numbers it. */
export type NewEvent = {
  [Type in WorkbenchEventType]: { run_id: string | null; type: Type; payload: EventPayloads[Type] };
}[WorkbenchEventType];

/**
 * The schema of a known event, envelope and payload, discriminated on `type`.
 *
 * @example
 * const result = WorkbenchEventSchema.safeParse(value);
 */
export const WorkbenchEventSchema: z.ZodType<WorkbenchEvent> = z.discriminatedUnion(
  'type',
  Object.entries(EVENT_PAYLOAD_SCHEMAS).map(([type, payload]) =>
    EventEnvelopeSchema.extend({ type: z.literal(type), payload }),
  ) as unknown as [z.ZodObject, ...z.ZodObject[]],
) as unknown as z.ZodType<WorkbenchEvent>;

/**
 * Reads one event from the wire: a known event checked against its schema, `undefined` for an
 * event of a type this contract does not know (to be ignored, spec §5). A malformed envelope or a
 * known type with a bad payload throws the zod error.
 *
 * @example
 * const event = parseEvent(JSON.parse(message.data));
 * if (event !== undefined) projection.apply(event);
 */
export function parseEvent(value: unknown): WorkbenchEvent | undefined {
  const envelope = EventEnvelopeSchema.parse(value);
  if (!isKnownEventType(envelope.type)) return undefined;
  return WorkbenchEventSchema.parse(value);
}
