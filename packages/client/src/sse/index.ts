export { readServerSentEvents } from './server-sent-events.ts';
export type { ServerSentEvent, ServerSentEventsOptions } from './server-sent-events.ts';
