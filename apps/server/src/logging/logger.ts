import { createRequire } from 'node:module';
import pino from 'pino';
import { REDACTED, redactKeyShaped } from '../security/secret-redaction.ts';

export type ServerLogger = pino.Logger;

/** Field paths pino blanks out wherever they appear. */
export const REDACTED_PATHS = [
  'authorization',
  'cookie',
  'token',
  'api_key',
  'apiKey',
  'secret',
  'password',
  '*.authorization',
  '*.cookie',
  '*.token',
  '*.api_key',
  '*.apiKey',
  '*.secret',
  '*.password',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
];

/** Where log lines go: anything with `write(line)`. */
export interface LogDestination {
  write(line: string): unknown;
}

/**
 * Replaces known secret values (the access token, provider keys) and key-shaped strings wherever
 * they appear in a log line, including inside messages and URLs that no field path can name.
 * `redact` does the same for text about to be stored or sent (errors in run events, test results).
 *
 * @example
 * const redactor = new SecretRedactor(process.stdout);
 * redactor.add(token);
 */
export class SecretRedactor implements LogDestination {
  readonly #destination: LogDestination;
  readonly #secrets = new Set<string>();

  constructor(destination: LogDestination) {
    this.#destination = destination;
  }

  /** Values shorter than 8 characters are ignored: they would blank out ordinary words. */
  add(secret: string): void {
    if (secret.length >= 8) this.#secrets.add(secret);
  }

  /** `text` with every known secret and every key-shaped string replaced by `[redacted]`. */
  redact(text: string): string {
    let result = text;
    for (const secret of this.#secrets)
      if (result.includes(secret)) result = result.replaceAll(secret, REDACTED);
    return redactKeyShaped(result);
  }

  write(line: string): unknown {
    return this.#destination.write(this.redact(line));
  }
}

export interface CreateLoggerOptions {
  /** Default `info`; `silent` for none. */
  level?: string;
  /** Default: stdout. */
  destination?: LogDestination;
  /** Human-readable lines (pino-pretty); default when stdout is a terminal. */
  pretty?: boolean;
}

/**
 * The server's pino logger: JSON lines (pretty in a terminal), secrets redacted by field and by
 * value.
 *
 * @example
 * const { logger, redactor } = createLogger({ level: 'info' });
 * redactor.add(token);
 * logger.info({ port }, 'listening');
 */
function loadPinoPretty(): ((options: object) => LogDestination) | undefined {
  try {
    return createRequire(import.meta.url)('pino-pretty') as (options: object) => LogDestination;
  } catch {
    return undefined;
  }
}

export function createLogger(options: CreateLoggerOptions = {}): {
  logger: ServerLogger;
  redactor: SecretRedactor;
} {
  const redactor = new SecretRedactor(options.destination ?? process.stdout);
  const pretty = options.pretty ?? (options.destination === undefined && process.stdout.isTTY === true);
  let stream: LogDestination = redactor;
  // Loaded only for a terminal: JSON logging never pays for it. The single executable carries
  // no pino-pretty (it is loaded at run time, not bundled): it logs JSON there.
  const prettyFactory = pretty ? loadPinoPretty() : undefined;
  if (prettyFactory !== undefined) {
    stream = prettyFactory({
      destination: redactor,
      colorize: true,
      translateTime: 'HH:MM:ss.l',
      sync: true,
    });
  }
  const logger = pino(
    {
      level: options.level ?? 'info',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      base: { pid: process.pid },
    },
    stream as pino.DestinationStream,
  );
  return { logger, redactor };
}
