import { createRoute, z } from '@hono/zod-openapi';
import { MAX_MESSAGE_HITS, MAX_MESSAGE_QUERY, searchMessages } from '../../conversations/index.ts';
import { ApiError } from '../../errors/index.ts';
import { lastSeqOf } from '../../events/index.ts';
import { conversationEventStream } from '../../sse/index.ts';
import type { ConversationStart } from '@youyou/contracts';
import { IdempotencyKeys } from '../../idempotency/index.ts';
import type { SendOptions } from '../../runs/index.ts';
import { conversationOfRow, runViewOfRow } from '../../storage/index.ts';
import {
  ConversationStartResultSchema,
  ConversationStartSchema,
  errorResponses,
  EventPageSchema,
  IdParameter,
  json,
  jsonBody,
  MessageSearchResultSchema,
  RegenerateSchema,
  RunSchema,
  SendMessageSchema,
  SendResultSchema,
} from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createConversationRow, sendRequestOf } from './new-conversation.ts';
import { createRouter } from './router.ts';

const IdempotencyHeader = z.object({
  'idempotency-key': z.string().min(1).max(255).optional().openapi({
    description:
      'A key the client makes per message (a UUID): a retry with the same key and body returns the first answer (the run as it is now) with `Idempotent-Replayed: true`; the same key with another body is 422 `IDEMPOTENCY_KEY_REUSED`. Kept for 24 hours.',
  }),
});

const sendMessage = createRoute({
  method: 'post',
  path: '/conversations/{id}/messages',
  tags: ['messages'],
  summary: 'Send a message: starts a run (409 while another run of the conversation is in flight)',
  request: { params: IdParameter, headers: IdempotencyHeader, body: jsonBody(SendMessageSchema) },
  responses: { 202: json(SendResultSchema, 'The run was created'), ...errorResponses(404, 409, 422) },
});

const startConversation = createRoute({
  method: 'post',
  path: '/conversations/start',
  tags: ['messages'],
  summary: 'Create a conversation and send its first message in one call',
  description:
    'If the message is refused (an unknown skill, no model, a bad reference) the conversation is removed again, so a client never leaves an empty one behind. Takes an `Idempotency-Key` like a send.',
  request: { headers: IdempotencyHeader, body: jsonBody(ConversationStartSchema) },
  responses: {
    202: json(ConversationStartResultSchema, 'The conversation and its first run were created'),
    ...errorResponses(404, 409, 422),
  },
});

const searchMessageText = createRoute({
  method: 'get',
  path: '/messages/search',
  tags: ['messages'],
  summary: 'Search the text of every user and assistant message, newest first, with highlighted snippets',
  description:
    'Every word of `query` (or `"quoted phrase"`) must occur in the message; case is ignored and any language works (trigram index). An empty or over-long query is 400 `INVALID_INPUT`.',
  request: {
    query: z.object({
      query: z.string().max(MAX_MESSAGE_QUERY),
      limit: z.coerce.number().int().min(1).max(MAX_MESSAGE_HITS).optional(),
    }),
  },
  responses: { 200: json(MessageSearchResultSchema, 'The matching messages'), ...errorResponses() },
});

const regenerate = createRoute({
  method: 'post',
  path: '/conversations/{id}/messages/{message_id}/regenerate',
  tags: ['messages'],
  summary: 'Answer the same user message again: a sibling of the given assistant message',
  request: {
    params: IdParameter.extend({
      message_id: z
        .string()
        .min(1)
        .max(128)
        .openapi({ param: { name: 'message_id', in: 'path' } }),
    }),
    body: jsonBody(RegenerateSchema),
  },
  responses: { 202: json(SendResultSchema, 'The run was created'), ...errorResponses(404, 409, 422) },
});

const streamEvents = createRoute({
  method: 'get',
  path: '/conversations/{id}/events',
  tags: ['events'],
  summary: 'Server-sent events of a conversation; resume with Last-Event-ID (or ?after=seq)',
  description:
    'Each event is `id: <seq>` and `data: <envelope JSON>`; comment lines are heartbeats. Without a cursor the stream starts at the current end of the log.',
  request: {
    params: IdParameter,
    query: z.object({ after: z.coerce.number().int().min(0).optional() }),
    headers: z.object({ 'last-event-id': z.string().max(30).optional() }),
  },
  responses: {
    200: { description: 'An event stream', content: { 'text/event-stream': { schema: z.string() } } },
    ...errorResponses(404),
  },
});

const eventLog = createRoute({
  method: 'get',
  path: '/conversations/{id}/event-log',
  tags: ['events'],
  summary: 'Stored events after a seq, as JSON (replay and debugging)',
  request: {
    params: IdParameter,
    query: z.object({
      after: z.coerce.number().int().min(0).optional(),
      limit: z.coerce.number().int().min(1).max(5000).optional(),
    }),
  },
  responses: { 200: json(EventPageSchema), ...errorResponses(404) },
});

const getRun = createRoute({
  method: 'get',
  path: '/runs/{id}',
  tags: ['runs'],
  summary: 'A run',
  request: { params: IdParameter },
  responses: { 200: json(RunSchema), ...errorResponses(404) },
});

const cancelRun = createRoute({
  method: 'post',
  path: '/runs/{id}/cancel',
  tags: ['runs'],
  summary: 'Cancel a run and its children; a finished run is returned unchanged',
  request: { params: IdParameter },
  responses: { 200: json(RunSchema), ...errorResponses(404) },
});

function cursorOf(header: string | undefined, query: number | undefined): number | undefined {
  if (header !== undefined) {
    const value = Number(header);
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new ApiError('INVALID_INPUT', 'Last-Event-ID must be a seq this server sent.', {
        details: { last_event_id: header },
      });
    }
    return value;
  }
  return query;
}

/** `Idempotent-Replayed: true` on an answer that repeats an earlier request's. */
function replayHeaders(replayed: boolean): Record<string, string> {
  return replayed ? { 'idempotent-replayed': 'true' } : {};
}

/** Sending, regenerating, the event stream, the event log and runs. */
export function messageRoutes(services: ServerServices) {
  const { runs, database, config } = services;
  const keys = new IdempotencyKeys(database.db);

  /** Creates the conversation, sends its message, and removes the conversation if the send fails. */
  const start = async (body: ConversationStart, options: SendOptions = {}) => {
    const conversation = await createConversationRow(services, body.conversation ?? {});
    try {
      const sent = await runs.send(conversation.id, sendRequestOf(body.message), options);
      return { ...sent, conversation_id: conversation.id };
    } catch (error) {
      await services.conversations.delete(conversation.id);
      services.pool.forget(conversation.id);
      throw error;
    }
  };

  return createRouter()
    .openapi(searchMessageText, async (c) => {
      const query = c.req.valid('query');
      const hits = await searchMessages(database.db, database.dialect, {
        query: query.query,
        ...(query.limit === undefined ? {} : { limit: query.limit }),
      });
      return c.json({ hits }, 200);
    })
    .openapi(sendMessage, async (c) => {
      const body = c.req.valid('json');
      const { id } = c.req.valid('param');
      const key = c.req.valid('header')['idempotency-key'];
      if (key === undefined) return c.json(await runs.send(id, sendRequestOf(body)), 202);
      const { result, replayed } = await keys.once({ conversationId: id }, key, body, async (options) => ({
        ...(await runs.send(id, sendRequestOf(body), options)),
        conversation_id: id,
      }));
      const { conversation_id: _conversation, ...sent } = result;
      return c.json(sent, 202, replayHeaders(replayed));
    })
    .openapi(startConversation, async (c) => {
      const body = c.req.valid('json');
      const key = c.req.valid('header')['idempotency-key'];
      const { result, replayed } =
        key === undefined
          ? { result: await start(body), replayed: false }
          : await keys.once('new-conversation', key, body, (options) => start(body, options));
      const { conversation_id: conversationId, ...sent } = result;
      const conversation = conversationOfRow(await services.conversations.get(conversationId));
      return c.json({ ...sent, conversation }, 202, replayHeaders(replayed));
    })
    .openapi(regenerate, async (c) => {
      const { id, message_id: messageId } = c.req.valid('param');
      const result = await runs.regenerate(id, messageId, c.req.valid('json').model_id);
      return c.json(result, 202);
    })
    .openapi(streamEvents, async (c) => {
      const { id } = c.req.valid('param');
      const current = await lastSeqOf(database, id);
      if (current === undefined)
        throw new ApiError('NOT_FOUND', `No conversation has id '${id}'.`, {
          details: { resource: 'conversation', id },
        });
      const afterSeq =
        cursorOf(c.req.valid('header')['last-event-id'], c.req.valid('query').after) ?? current;
      const stream = conversationEventStream({
        eventLog: services.eventLog,
        hub: services.hub,
        conversationId: id,
        afterSeq,
        heartbeatMs: config.heartbeatMs,
        stallTimeoutMs: config.stallTimeoutMs,
        lastSeq: () => lastSeqOf(database, id),
        ...(c.env?.outgoing === undefined ? {} : { disconnect: () => c.env.outgoing?.destroy() }),
        onClose: (reason) => {
          if (reason !== 'client')
            services.logger.info({ conversationId: id, reason }, 'event stream closed');
        },
      });
      return new Response(stream, {
        status: 200,
        headers: {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          'x-accel-buffering': 'no',
        },
      });
    })
    .openapi(eventLog, async (c) => {
      const { id } = c.req.valid('param');
      const query = c.req.valid('query');
      const last = await lastSeqOf(database, id);
      if (last === undefined)
        throw new ApiError('NOT_FOUND', `No conversation has id '${id}'.`, {
          details: { resource: 'conversation', id },
        });
      const events = await services.eventLog.read(id, {
        afterSeq: query.after ?? 0,
        limit: query.limit ?? 1000,
      });
      return c.json({ events, last_seq: last }, 200);
    })
    .openapi(getRun, async (c) =>
      c.json(runViewOfRow(await services.runRepository.get(c.req.valid('param').id)), 200),
    )
    .openapi(cancelRun, async (c) => c.json(await runs.cancel(c.req.valid('param').id), 200));
}
