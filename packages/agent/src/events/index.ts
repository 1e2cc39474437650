export type * from './agent-event.ts';
export { EventStamp } from './event-stamp.ts';
export type { SequenceCounter } from './event-stamp.ts';
