import { createRoute } from '@hono/zod-openapi';
import { RunContextReportsSchema, RunReplaySchema } from '@youyou/contracts';
import { placeModelCalls } from '../../context/index.ts';
import { notFound } from '../../errors/index.ts';
import { runViewOfRow } from '../../storage/index.ts';
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

const getReplay = createRoute({
  method: 'get',
  path: '/runs/{id}/replay',
  tags: ['context', 'runs', 'events'],
  summary:
    "A run's recorded events, oldest first, with each model call's assembly report placed among them (spec §4.17 replay): an answer of any conversation or a sub-agent, played back as a timeline",
  request: { params: IdParameter },
  responses: { 200: json(RunReplaySchema), ...errorResponses(404) },
});

/** Context assembly (spec §4.10): the stored reports of a run, and its replay beside them. */
export function contextRoutes(services: ServerServices) {
  const { contextAssembly, runRepository, eventLog } = services;
  return createRouter()
    .openapi(getReports, async (c) => {
      const { id } = c.req.valid('param');
      if ((await runRepository.find(id)) === undefined) throw notFound('run', id);
      return c.json({ run_id: id, reports: await contextAssembly.reportsOf(id) }, 200);
    })
    .openapi(getReplay, async (c) => {
      const run = await runRepository.get(c.req.valid('param').id);
      const [events, reports] = await Promise.all([
        eventLog.read(run.conversation_id, { afterSeq: 0, runIds: [run.id] }),
        contextAssembly.reportsOf(run.id),
      ]);
      return c.json({ run: runViewOfRow(run), events, calls: placeModelCalls(events, reports) }, 200);
    });
}
