export { ALL_ERROR_CODES, API_ERROR_CODES, ApiError, HTTP_STATUS_BY_CODE, notFound } from './api-error.ts';
export type { ApiErrorCode, ApiErrorOptions, ApiOnlyErrorCode, ErrorBody } from './api-error.ts';
