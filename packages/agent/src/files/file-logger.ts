/**
 * The little the file channel needs from a logger: hook warnings, script stderr, skipped lines.
 * Pino's `logger.warn(fields, message)` order is used so a pino logger fits as is.
 *
 * @example
 * const logger: FileChannelLogger = {
 *   warn: (fields, message) => console.warn(message, fields),
 *   debug: () => {},
 * };
 */
export interface FileChannelLogger {
  warn(fields: Readonly<Record<string, unknown>>, message: string): void;
  debug(fields: Readonly<Record<string, unknown>>, message: string): void;
}

/** A logger that drops everything; the default when none is given. */
export const SILENT_LOGGER: FileChannelLogger = Object.freeze({
  warn: () => undefined,
  debug: () => undefined,
});
