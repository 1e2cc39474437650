export type * from './agent-event.ts';
