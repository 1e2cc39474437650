import { z } from 'zod';

/**
 * An error as it travels in events and error parts. `source` names where it came from (the
 * agent's sources — `provider`, `tool`, `storage`, … — or `server`); it is a string on the wire so
 * that a newer server's sources parse too.
 *
 * @example
 * EventErrorSchema.parse({ code: 'PROVIDER_ERROR', message: 'Rate limited', retryable: true });
 */
export const EventErrorSchema = z
  .object({
    code: z.string(),
    message: z.string(),
    retryable: z.boolean(),
    source: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'EventError', description: 'An error in an event or an error part.' });
export type EventError = z.infer<typeof EventErrorSchema>;

/**
 * The body of every failed API call: a machine code (the server's `ALL_ERROR_CODES`), a message
 * for people, whether retrying can help, and the request id to quote in a report.
 *
 * @example
 * const body = ErrorBodySchema.parse(await response.json());
 * if (body.error.code === 'CONVERSATION_BUSY') showBusy();
 */
export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string().meta({ description: 'A machine code.' }),
    message: z.string(),
    retryable: z.boolean(),
    details: z.record(z.string(), z.unknown()).optional(),
    request_id: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
