export { coalesceDeltas, pushDelta } from './coalesce-deltas.ts';
export { decodeBody } from './decode-body.ts';
export { isContextLengthError } from './context-length.ts';
export { getJson } from './get-json.ts';
export { positiveInteger, positiveNumber, record } from './json-fields.ts';
export type { GetJsonOptions } from './get-json.ts';
export {
  RETRYABLE_ERROR_TYPES,
  classifyHttpFailure,
  readServerError,
  streamErrorEvent,
} from './http-failure.ts';
export type { FailureContext, HttpFailure, ServerErrorFields } from './http-failure.ts';
export { DEFAULT_RETRY_POLICY, backoffDelay, parseRetryAfter, resolveRetryPolicy } from './retry-policy.ts';
export type { RetryOptions, RetryPolicy } from './retry-policy.ts';
export { streamCall } from './stream-call.ts';
export type { StreamCallOptions } from './stream-call.ts';
export type { StreamDecoder } from './stream-decoder.ts';
