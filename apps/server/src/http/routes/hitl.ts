import { createRoute, z } from '@hono/zod-openapi';
import { hitlAnswerRequestSchema, hitlCardViewSchema } from '@youyou/contracts';
import { errorResponses, IdParameter, json, jsonBody } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const CardParameters = IdParameter.extend({
  card_id: z
    .string()
    .min(1)
    .max(128)
    .openapi({ param: { name: 'card_id', in: 'path' } }),
});

const CardViewSchema = hitlCardViewSchema;

const listCards = createRoute({
  method: 'get',
  path: '/conversations/{id}/cards',
  tags: ['hitl'],
  summary: "A conversation's HITL cards, oldest first (status=pending: the ones waiting for the user)",
  request: {
    params: IdParameter,
    query: z.object({
      status: z.enum(['pending', 'answered', 'expired', 'cancelled', 'superseded']).optional(),
    }),
  },
  responses: { 200: json(z.object({ cards: z.array(CardViewSchema) })), ...errorResponses(404) },
});

const getCard = createRoute({
  method: 'get',
  path: '/conversations/{id}/cards/{card_id}',
  tags: ['hitl'],
  summary: 'A HITL card with its state and resolution',
  request: { params: CardParameters },
  responses: { 200: json(CardViewSchema), ...errorResponses(404) },
});

const answerCard = createRoute({
  method: 'post',
  path: '/conversations/{id}/cards/{card_id}/answer',
  tags: ['hitl'],
  summary:
    'Answer a card: a choice id, free text (routed: a pick, an answer, or a new request), yes/no, or form values',
  description:
    'One answer per card: a second one is 409 CARD_ALREADY_RESOLVED with the first in details.resolution, unless it repeats the same client_key (then the first outcome is returned with replayed: true). A choice not on the card, form values that do not fit, or an answer of the wrong kind is 422 INVALID_ANSWER with details.',
  request: { params: CardParameters, body: jsonBody(hitlAnswerRequestSchema) },
  responses: {
    200: json(
      z
        .object({ card: CardViewSchema, replayed: z.boolean(), new_run_id: z.string().optional() })
        .openapi('HitlAnswerResult'),
    ),
    ...errorResponses(404, 409, 422),
  },
});

/** HITL cards: list, read, answer (spec §4.5). */
export function hitlRoutes(services: ServerServices) {
  const { hitl, conversations } = services;
  return createRouter()
    .openapi(listCards, async (c) => {
      const { id } = c.req.valid('param');
      await conversations.get(id);
      return c.json({ cards: await hitl.list(id, c.req.valid('query').status) }, 200);
    })
    .openapi(getCard, async (c) => {
      const { id, card_id: cardId } = c.req.valid('param');
      return c.json(await hitl.get(id, cardId), 200);
    })
    .openapi(answerCard, async (c) => {
      const { id, card_id: cardId } = c.req.valid('param');
      await conversations.get(id);
      return c.json(await hitl.answer(id, cardId, c.req.valid('json')), 200);
    });
}
