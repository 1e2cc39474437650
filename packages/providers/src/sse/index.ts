export { SseParser } from './sse-parser.ts';
export type { SseEvent } from './sse-parser.ts';
export { readSse, readSseBatches } from './sse-stream.ts';
