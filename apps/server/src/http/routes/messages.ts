import { createRoute, z } from '@hono/zod-openapi';
import { ApiError } from '../../errors/index.ts';
import { lastSeqOf } from '../../events/index.ts';
import { conversationEventStream } from '../../sse/index.ts';
import { runViewOfRow } from '../../storage/index.ts';
import {
  errorResponses,
  EventPageSchema,
  IdParameter,
  json,
  jsonBody,
  RegenerateSchema,
  RunSchema,
  SendMessageSchema,
  SendResultSchema,
} from '../schemas/index.ts';
import type { ServerServices } from '../services.ts';
import { createRouter } from './router.ts';

const sendMessage = createRoute({
  method: 'post',
  path: '/conversations/{id}/messages',
  tags: ['messages'],
  summary: 'Send a message: starts a run (409 while another run of the conversation is in flight)',
  request: { params: IdParameter, body: jsonBody(SendMessageSchema) },
  responses: { 202: json(SendResultSchema, 'The run was created'), ...errorResponses(404, 409, 422) },
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

/** Sending, regenerating, the event stream, the event log and runs. */
export function messageRoutes(services: ServerServices) {
  const { runs, database, config } = services;
  return createRouter()
    .openapi(sendMessage, async (c) => {
      const body = c.req.valid('json');
      const result = await runs.send(c.req.valid('param').id, {
        ...(body.text === undefined ? {} : { text: body.text }),
        ...(body.attachments === undefined ? {} : { attachments: body.attachments }),
        ...(body.skills === undefined
          ? {}
          : {
              skills: body.skills.map((skill) => ({
                name: skill.name,
                ...(skill.arguments === undefined ? {} : { arguments: skill.arguments }),
              })),
            }),
        ...(body.references === undefined ? {} : { references: body.references }),
        ...(body.model_id === undefined ? {} : { model_id: body.model_id }),
        ...(body.edit_of === undefined ? {} : { edit_of: body.edit_of }),
        ...(body.parent_message_id === undefined ? {} : { parent_message_id: body.parent_message_id }),
        ...(body.previous_run_id === undefined ? {} : { previous_run_id: body.previous_run_id }),
      });
      return c.json(result, 202);
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
