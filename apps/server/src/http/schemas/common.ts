import { z } from '@hono/zod-openapi';
import { ALL_ERROR_CODES } from '../../errors/index.ts';

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(ALL_ERROR_CODES as [string, ...string[]]).openapi({ description: 'A machine code.' }),
      message: z.string(),
      retryable: z.boolean(),
      details: z.record(z.string(), z.unknown()).optional(),
      request_id: z.string().optional(),
    }),
  })
  .openapi('Error');

/** Every route answers errors with this body. */
export function errorResponses(
  ...statuses: number[]
): Record<number, { description: string; content: { 'application/json': { schema: typeof ErrorSchema } } }> {
  const responses: Record<
    number,
    { description: string; content: { 'application/json': { schema: typeof ErrorSchema } } }
  > = {};
  for (const status of [400, 401, 403, ...statuses]) {
    responses[status] = {
      description: 'An error with a machine code.',
      content: { 'application/json': { schema: ErrorSchema } },
    };
  }
  return responses;
}

export const IdParameter = z.object({
  id: z
    .string()
    .min(1)
    .max(128)
    .openapi({ param: { name: 'id', in: 'path' } }),
});

export const ISODate = z.string().openapi({ format: 'date-time' });

/** `limit` of a page. */
export const PageLimit = z.coerce.number().int().min(1).max(200).optional();

export function json<Schema extends z.ZodType>(schema: Schema, description = 'OK') {
  return { description, content: { 'application/json': { schema } } };
}

export function jsonBody<Schema extends z.ZodType>(schema: Schema) {
  return { required: true, content: { 'application/json': { schema } } };
}
