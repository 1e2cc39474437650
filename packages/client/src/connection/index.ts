export { ApiError, isApiError } from './api-error.ts';
export { connect } from './connection.ts';
export type { Connection, ConnectionOptions, JsonRequest } from './connection.ts';
