export { readConversationEvents } from './conversation-events.ts';
export type { ConversationEventsOptions, StreamState } from './conversation-events.ts';
export { openEventStream } from './event-stream.ts';
export type { EventStream, EventStreamOptions } from './event-stream.ts';
