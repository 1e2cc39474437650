export { ServerSentEventParser } from './server-sent-event-parser.ts';
export type { ServerSentEvent, ServerSentEventVisitor } from './server-sent-event-parser.ts';
export { readServerSentEvents } from './read-server-sent-events.ts';
export type { ServerSentEventsOptions } from './read-server-sent-events.ts';
