import type { WorkbenchEventType } from './registry.ts';

/**
 * Types spec §4.2 names for capabilities that add their payloads to the registry (HITL, plans); until a type is registered, clients ignore it like any unknown type.
 *
 * @example
 * RESERVED_EVENT_TYPES.includes('hitl.request'); // true
 */
export const RESERVED_EVENT_TYPES = ['hitl.request', 'hitl.resolved', 'plan.update', 'todo.update'] as const;

/**
 * Events that live in the log but are not sent to clients.
 *
 * @example
 * INTERNAL_EVENT_TYPES.has('session.record'); // true: stored, never streamed
 */
export const INTERNAL_EVENT_TYPES: ReadonlySet<string> = new Set<WorkbenchEventType>(['session.record']);
