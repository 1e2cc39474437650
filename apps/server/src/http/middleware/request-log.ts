import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { ServerLogger } from '../../logging/index.ts';
import type { HttpEnv } from '../../services/index.ts';

/** One log line per request: method, path (never the query, which may hold the token), status, time. */
export function requestLog(logger: ServerLogger): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = c.req.header('x-request-id')?.slice(0, 100) ?? randomUUID();
    c.set('requestId', requestId);
    c.header('x-request-id', requestId);
    try {
      await next();
    } finally {
      logger.info(
        {
          request_id: requestId,
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      );
    }
  };
}
