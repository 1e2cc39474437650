import type { WorkbenchEventType } from './registry.ts';

/**
 * Events that live in the log but are not sent to clients.
 *
 * @example
 * INTERNAL_EVENT_TYPES.has('session.record'); // true: stored, never streamed
 */
export const INTERNAL_EVENT_TYPES: ReadonlySet<string> = new Set<WorkbenchEventType>(['session.record']);
