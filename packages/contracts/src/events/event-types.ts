import type { WorkbenchEventType } from './registry.ts';

/**
 * Every event type the contract knows, by name only: a client that routes events by type
 * (`isKnownEventType`) needs this list, not the payload schemas of every type (registry.ts), which
 * would put most of zod and the contract into a browser's first download. registry.ts checks at
 * compile time that both name the same types.
 */
export const WORKBENCH_EVENT_TYPES = [
  'run.created',
  'run.phase',
  'run.step',
  'message.delta',
  'thinking.delta',
  'tool.call',
  'tool.result',
  'context.compacted',
  'error',
  'run.completed',
  'run.failed',
  'run.cancelled',
  'run.interrupted',
  'conversation.updated',
  'session.record',
  'artifact.created',
  'artifact.updated',
  'artifact.deleted',
  'agent.spawn',
  'agent.progress',
  'agent.result',
  'hitl.request',
  'hitl.resolved',
  'plan.update',
  'todo.update',
  'card.posted',
  'memory.proposed',
  'memory.resolved',
  'document.status',
] as const;

const KNOWN_TYPES: ReadonlySet<string> = new Set(WORKBENCH_EVENT_TYPES);

/**
 * True for an event type this contract knows; a consumer skips the others (spec §5).
 *
 * @example
 * isKnownEventType('message.delta'); // true
 * isKnownEventType('hologram.shown'); // false: ignore it
 */
export function isKnownEventType(type: string): type is WorkbenchEventType {
  return KNOWN_TYPES.has(type);
}
