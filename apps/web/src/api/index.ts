// The server, as the UI reaches it: @youyou/client, same-origin.
export { createHttpClient } from './api-client.ts';
export type { ApiClient } from './api-client.ts';
export { errorMessage } from './api-error.ts';
export { ApiError, isApiError, openEventStream } from '@youyou/client';
export type { ComponentDraft, EventStream, EventStreamOptions, StreamState } from '@youyou/client';
