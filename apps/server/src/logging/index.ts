export { createLogger, REDACTED_PATHS, SecretRedactor } from './logger.ts';
export type { CreateLoggerOptions, LogDestination, ServerLogger } from './logger.ts';
