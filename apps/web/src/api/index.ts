export { createHttpClient } from './api-client.ts';
export type { ApiClient, ComponentDraft } from './api-client.ts';
export { ApiError, errorMessage, isApiError } from './api-error.ts';
export { openEventStream } from './event-stream.ts';
export type { EventStream, EventStreamOptions, StreamState } from './event-stream.ts';
export { SseParser } from './sse-parser.ts';
export type { ServerSentEvent } from './sse-parser.ts';
