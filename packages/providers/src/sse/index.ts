export { SseParser } from './sse-parser.ts';
export type { SseEvent, SseVisitor } from './sse-parser.ts';
export { readSse, readSseBatches } from './sse-stream.ts';
