import { createRoute, z } from '@hono/zod-openapi';
import { AgentTreeSchema } from '@youyou/contracts';
import { errorResponses, EventPageSchema, IdParameter, json } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const tags = ['agents'];

const agentTree = createRoute({
  method: 'get',
  path: '/conversations/{id}/agents',
  tags,
  summary:
    'The sub-agent task tree of a conversation (spec §4.4 AgentTracker): each node with status, phase, duration, tokens, tool calls, result and artifacts',
  request: { params: IdParameter },
  responses: { 200: json(AgentTreeSchema), ...errorResponses(404) },
});

const runEvents = createRoute({
  method: 'get',
  path: '/runs/{id}/events',
  tags: ['runs', 'events'],
  summary: 'The stored events of one run, oldest first (replay of a sub-agent, spec §4.17)',
  request: {
    params: IdParameter,
    query: z.object({
      after: z.coerce.number().int().min(0).optional(),
      limit: z.coerce.number().int().min(1).max(5000).optional(),
    }),
  },
  responses: { 200: json(EventPageSchema), ...errorResponses(404) },
});

/** The tracker's data: the task tree and each run's stored events. */
export function agentRoutes(services: ServerServices) {
  const { subagents, conversations, runRepository, eventLog } = services;
  return createRouter()
    .openapi(agentTree, async (c) => {
      const { id } = c.req.valid('param');
      await conversations.get(id);
      return c.json(await subagents.tree(id), 200);
    })
    .openapi(runEvents, async (c) => {
      const run = await runRepository.get(c.req.valid('param').id);
      const query = c.req.valid('query');
      const events = await eventLog.read(run.conversation_id, {
        afterSeq: query.after ?? 0,
        limit: query.limit ?? 5000,
        runIds: [run.id],
      });
      return c.json({ events, last_seq: events.at(-1)?.seq ?? query.after ?? 0 }, 200);
    });
}
