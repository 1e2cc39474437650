import { createRoute } from '@hono/zod-openapi';
import { RunContextReportsSchema } from '@youyou/contracts';
import { notFound } from '../../errors/index.ts';
import { errorResponses, IdParameter, json } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const getReports = createRoute({
  method: 'get',
  path: '/runs/{id}/context',
  tags: ['context'],
  summary:
    'What the model saw in each model call of a run (a message): tokens per slot, the budget, and what was trimmed or dropped and why',
  request: { params: IdParameter },
  responses: { 200: json(RunContextReportsSchema), ...errorResponses(404) },
});

/** Context assembly (spec §4.10): the stored reports of a run. */
export function contextRoutes(services: ServerServices) {
  const { contextAssembly, runRepository } = services;
  return createRouter().openapi(getReports, async (c) => {
    const { id } = c.req.valid('param');
    if ((await runRepository.find(id)) === undefined) throw notFound('run', id);
    return c.json({ run_id: id, reports: await contextAssembly.reportsOf(id) }, 200);
  });
}
