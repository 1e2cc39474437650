export { IDEMPOTENCY_KEY_LIFETIME_MS, IdempotencyKeys, requestHash } from './idempotent-send.ts';
export type { IdempotencyScope, IdempotentResult } from './idempotent-send.ts';
