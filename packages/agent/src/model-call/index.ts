export { ModelCall } from './model-call.ts';
export type { ModelCallOptions, ModelCallOutcome } from './model-call.ts';
export { Reply } from './reply.ts';
