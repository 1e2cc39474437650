import { OpenAPIHono } from '@hono/zod-openapi';
import { validationHook } from '../middleware/errors.ts';
import type { HttpEnv } from '../../services/index.ts';

/** A router whose validation failures become INVALID_INPUT error bodies. */
export function createRouter(): OpenAPIHono<HttpEnv> {
  return new OpenAPIHono<HttpEnv>({ defaultHook: validationHook });
}
