export { takeEarlyResponse } from './early-request-paths.ts';
export type { EarlyRequest, EarlyRequests } from './early-request-paths.ts';
