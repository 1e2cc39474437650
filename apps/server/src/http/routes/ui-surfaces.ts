import { createRoute } from '@hono/zod-openapi';
import { UiActionRequestSchema, UiActionResultSchema, UiPanelListSchema } from '@youyou/contracts';
import { errorResponses, json, jsonBody } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const listPanels = createRoute({
  method: 'get',
  path: '/extensions/panels',
  tags: ['ui'],
  summary: 'The right-column panels of every enabled extension, as UI documents (docs/ui-schema.md)',
  responses: { 200: json(UiPanelListSchema), ...errorResponses() },
});

const runAction = createRoute({
  method: 'post',
  path: '/extensions/actions',
  tags: ['ui'],
  summary: "Run the tool or command a panel's or a card's button or form names",
  description:
    'The source must declare it (404 ACTION_NOT_DECLARED otherwise). The tool passes the same policy as in a run: deny is 403 ACTION_DENIED; confirm is 409 ACTION_CONFIRMATION_REQUIRED (details: the tool and its readable arguments) until the request says confirmed: true. Arguments that do not fit the tool are 400 INVALID_INPUT.',
  request: { body: jsonBody(UiActionRequestSchema) },
  responses: { 200: json(UiActionResultSchema), ...errorResponses(400, 403, 404, 409) },
});

/** UI surfaces (spec §4.6): extension panels and the actions of panels and cards. */
export function uiSurfaceRoutes(services: ServerServices) {
  const { uiSurfaces, uiActions, logger } = services;
  return createRouter()
    .openapi(listPanels, async (c) => {
      const panels = await uiSurfaces.panels((source, error) =>
        logger.warn({ err: error, source }, 'the panels of a source could not be listed'),
      );
      return c.json({ panels }, 200);
    })
    .openapi(runAction, async (c) => c.json(await uiActions.run(c.req.valid('json'), c.req.raw.signal), 200));
}
