import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, jsonBody } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const RunAgentInputBody = z
  .looseObject({
    threadId: z.string(),
    runId: z.string(),
    messages: z.array(z.looseObject({ id: z.string(), role: z.string() })),
  })
  .openapi('RunAgentInput', {
    description:
      'AG-UI RunAgentInput (protocol 1.0): threadId is the conversation (created when new), the last user message is sent; forwardedProps.model_id picks a model; resume answers the HITL cards the previous run was interrupted by.',
  });

const runAgent = createRoute({
  method: 'post',
  path: '/ag-ui',
  tags: ['protocols'],
  summary: 'Run an agent turn over AG-UI: RunAgentInput in, AG-UI events out (SSE)',
  description:
    'The mapping from workbench events to AG-UI events is in docs/protocols.md: the planboard as STATE_SNAPSHOT/STATE_DELTA, a HITL card as RUN_FINISHED with an interrupt outcome. A client that disconnects before the run ends or interrupts cancels it.',
  request: { body: jsonBody(RunAgentInputBody) },
  responses: {
    200: { description: 'AG-UI events', content: { 'text/event-stream': { schema: z.string() } } },
    ...errorResponses(404, 409, 422),
  },
});

/** The AG-UI endpoint (spec §4.1 principle 1, §4.16: other front ends drive the same runs). */
export function agUiRoutes(services: ServerServices) {
  return createRouter().openapi(runAgent, async (c) => {
    // Loaded with the first AG-UI request: @ag-ui/core builds its zod schemas when it loads, the
    // largest single cost of the server's start (docs/decisions/0020-executable-startup-and-idle-memory.md).
    const { parseRunAgentInput, runAgUiTurn } = await import('../../protocols/ag-ui/index.ts');
    return runAgUiTurn(services, parseRunAgentInput(c.req.valid('json')), c.req.raw.signal);
  });
}
