import { createRoute, z } from '@hono/zod-openapi';
import { ConversationTree, queryConversation } from '../../conversations/index.ts';
import { notFound } from '../../errors/index.ts';
import { conversationOfRow, RunRepository } from '../../storage/index.ts';
import {
  BranchSchema,
  ConversationCreateSchema,
  ConversationPageSchema,
  ConversationSchema,
  ConversationUpdateSchema,
  ConversationViewSchema,
  errorResponses,
  IdParameter,
  json,
  jsonBody,
  PageLimit,
  ReadSchema,
} from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createConversationRow } from './new-conversation.ts';
import { createRouter } from './router.ts';

const tags = ['conversations'];

const listConversations = createRoute({
  method: 'get',
  path: '/conversations',
  tags,
  summary: 'List conversations, newest first; `q` searches titles',
  request: {
    query: z.object({
      project_id: z.string().optional(),
      q: z.string().max(200).optional(),
      cursor: z.string().max(500).optional(),
      limit: PageLimit,
    }),
  },
  responses: { 200: json(ConversationPageSchema), ...errorResponses() },
});

const createConversation = createRoute({
  method: 'post',
  path: '/conversations',
  tags,
  summary: 'Create a conversation',
  request: { body: jsonBody(ConversationCreateSchema) },
  responses: { 201: json(ConversationSchema, 'Created'), ...errorResponses(404) },
});

const getConversation = createRoute({
  method: 'get',
  path: '/conversations/{id}',
  tags,
  summary: 'The conversation Query: the active branch of the message tree, with alternatives',
  request: {
    params: IdParameter,
    query: z.object({
      limit: z.coerce.number().int().min(1).max(1000).optional(),
      before: z.string().max(128).optional(),
    }),
  },
  responses: { 200: json(ConversationViewSchema), ...errorResponses(404) },
});

const updateConversation = createRoute({
  method: 'patch',
  path: '/conversations/{id}',
  tags,
  summary: 'Rename a conversation, change its model or project',
  request: { params: IdParameter, body: jsonBody(ConversationUpdateSchema) },
  responses: { 200: json(ConversationSchema), ...errorResponses(404) },
});

const deleteConversation = createRoute({
  method: 'delete',
  path: '/conversations/{id}',
  tags,
  summary: 'Delete a conversation (a run in flight is cancelled first)',
  request: { params: IdParameter },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(404) },
});

const markRead = createRoute({
  method: 'put',
  path: '/conversations/{id}/read',
  tags,
  summary: 'The user has read up to this seq (every browser sees it; it never moves back)',
  request: { params: IdParameter, body: jsonBody(ReadSchema) },
  responses: { 200: json(ConversationSchema), ...errorResponses(404) },
});

const switchBranch = createRoute({
  method: 'post',
  path: '/conversations/{id}/branch',
  tags,
  summary: 'Show another branch: the newest leaf below the given message becomes active',
  request: { params: IdParameter, body: jsonBody(BranchSchema) },
  responses: { 200: json(ConversationViewSchema), ...errorResponses(404) },
});

/** Conversations: listing, search, CRUD, the Query and branch switching. */
export function conversationRoutes(services: ServerServices) {
  const { conversations, database, eventLog } = services;
  return createRouter()
    .openapi(listConversations, async (c) => {
      const query = c.req.valid('query');
      const page = await conversations.list({
        limit: query.limit ?? 50,
        ...(query.project_id === undefined ? {} : { projectId: query.project_id }),
        ...(query.q === undefined ? {} : { query: query.q }),
        ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
      });
      return c.json(
        {
          conversations: page.rows.map(conversationOfRow),
          ...(page.nextCursor === undefined ? {} : { next_cursor: page.nextCursor }),
        },
        200,
      );
    })
    .openapi(createConversation, async (c) =>
      c.json(conversationOfRow(await createConversationRow(services, c.req.valid('json'))), 201),
    )
    .openapi(getConversation, async (c) => {
      const { id } = c.req.valid('param');
      const query = c.req.valid('query');
      const view = await queryConversation(database.db, database.dialect, id, {
        ...(query.limit === undefined ? {} : { limit: query.limit }),
        ...(query.before === undefined ? {} : { before: query.before }),
      });
      return c.json(view, 200);
    })
    .openapi(updateConversation, async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      if (body.project_id !== undefined && body.project_id !== null)
        await services.projects.get(body.project_id);
      const profile =
        body.profile_id === undefined || body.profile_id === null
          ? undefined
          : await services.profiles.get(body.profile_id);
      const changes = {
        ...(body.title === undefined ? {} : { title: body.title, title_source: 'user' as const }),
        ...(body.model_id === undefined ? {} : { model_id: body.model_id }),
        ...(body.project_id === undefined ? {} : { project_id: body.project_id }),
        ...(body.profile_id === undefined
          ? {}
          : { profile_id: profile === undefined || profile.builtin ? null : profile.id }),
      };
      await eventLog.transact(id, async (transaction, insert) => {
        await conversations.update(id, changes, Date.now(), transaction);
        await insert([{ run_id: null, type: 'conversation.updated', payload: changes }]);
      });
      if (body.project_id !== undefined) services.pool.forget(id);
      return c.json(conversationOfRow(await conversations.get(id)), 200);
    })
    .openapi(deleteConversation, async (c) => {
      const { id } = c.req.valid('param');
      await conversations.get(id);
      await services.runs.stopConversation(id);
      await conversations.delete(id);
      services.pool.forget(id);
      return c.body(null, 204);
    })
    .openapi(markRead, async (c) => {
      const { id } = c.req.valid('param');
      const { seq } = c.req.valid('json');
      await eventLog.transact(id, async (transaction, insert) => {
        const row = await conversations.get(id, transaction);
        let readSeq = Math.min(Math.max(row.read_seq, seq), row.last_seq);
        if (readSeq === row.read_seq) return;
        // Everything read: the event that says so (the next seq, under this row's lock) is read too.
        if (readSeq === row.last_seq) readSeq = row.last_seq + 1;
        await insert([{ run_id: null, type: 'conversation.updated', payload: { read_seq: readSeq } }]);
        // Not a change of the conversation: its place in the listing stays.
        await transaction
          .updateTable('conversations')
          .set({ read_seq: readSeq })
          .where('id', '=', id)
          .execute();
      });
      return c.json(conversationOfRow(await conversations.get(id)), 200);
    })
    .openapi(switchBranch, async (c) => {
      const { id } = c.req.valid('param');
      const { message_id: messageId } = c.req.valid('json');
      await conversations.get(id);
      const tree = new ConversationTree(await new RunRepository(database.db).tree(id));
      const direct = tree.run(messageId);
      const starts = direct === undefined ? tree.runsOfUserMessage(messageId) : [direct];
      const leaf = tree.latestLeaf(starts);
      if (leaf === undefined) throw notFound('message', messageId);
      await eventLog.transact(id, async (transaction, insert) => {
        await conversations.update(id, { active_run_id: leaf.id }, Date.now(), transaction);
        await insert([{ run_id: null, type: 'conversation.updated', payload: { active_run_id: leaf.id } }]);
      });
      return c.json(await queryConversation(database.db, database.dialect, id), 200);
    });
}
