/**
 * The logging surface the agent writes to; pino's logger fits it as is.
 *
 * @example
 * const agent = await new AgentBuilder({ cwd }).setLogger(pino()).addProvider(p).build();
 */
export interface Logger {
  debug(data: object, message: string): void;
  info(data: object, message: string): void;
  warn(data: object, message: string): void;
  error(data: object, message: string): void;
}

/** Warnings and errors to stderr as JSON lines; the default when no logger is set. */
export const stderrLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: (data, message) => writeLine('warn', data, message),
  error: (data, message) => writeLine('error', data, message),
};

function writeLine(level: string, data: object, message: string): void {
  process.stderr.write(`${JSON.stringify({ level, time: Date.now(), message, ...data })}\n`);
}

/** A logger that drops everything. */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};
