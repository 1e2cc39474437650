import { randomUUID } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import {
  planboardViewSchema,
  todoCreateSchema,
  todoPatchSchema,
  todoUpdatePayloadSchema,
  type TodoChange,
  type TodoItem,
} from '@youyou/contracts';
import { notFound } from '../../errors/index.ts';
import { errorResponses, IdParameter, json, jsonBody } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const PlanboardSchema = planboardViewSchema;
const TodoUpdateSchema = todoUpdatePayloadSchema;

const TodoParameters = IdParameter.extend({
  todo_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'todo_id', in: 'path' } }),
});

const getPlanboard = createRoute({
  method: 'get',
  path: '/conversations/{id}/planboard',
  tags: ['planboard'],
  summary: "The conversation's plan (steps) and todos, each with its version",
  request: { params: IdParameter },
  responses: { 200: json(PlanboardSchema), ...errorResponses(404) },
});

const addTodo = createRoute({
  method: 'post',
  path: '/conversations/{id}/todos',
  tags: ['planboard'],
  summary: 'Add a todo (the model is told at its next step)',
  request: { params: IdParameter, body: jsonBody(todoCreateSchema) },
  responses: { 201: json(TodoUpdateSchema), ...errorResponses(404) },
});

const patchTodo = createRoute({
  method: 'patch',
  path: '/conversations/{id}/todos/{todo_id}',
  tags: ['planboard'],
  summary: 'Tick, untick or edit a todo (the model is told at its next step)',
  request: { params: TodoParameters, body: jsonBody(todoPatchSchema) },
  responses: { 200: json(TodoUpdateSchema), ...errorResponses(404) },
});

const deleteTodo = createRoute({
  method: 'delete',
  path: '/conversations/{id}/todos/{todo_id}',
  tags: ['planboard'],
  summary: 'Remove a todo (the model is told at its next step)',
  request: { params: TodoParameters },
  responses: { 200: json(TodoUpdateSchema), ...errorResponses(404) },
});

/** The planboard (spec §4.3): read the plan and todos; the user's todo changes. */
export function planboardRoutes(services: ServerServices) {
  const { planboards, conversations, eventLog } = services;
  const change = (
    conversationId: string,
    edit: (current: TodoItem[]) => { todos: TodoItem[]; changes: TodoChange[] },
  ) =>
    eventLog.transact(conversationId, (transaction, insert) =>
      planboards.changeTodos(transaction, insert, { conversationId, runId: null, author: 'user', edit }),
    );
  return createRouter()
    .openapi(getPlanboard, async (c) => {
      const { id } = c.req.valid('param');
      await conversations.get(id);
      return c.json(await planboards.get(id), 200);
    })
    .openapi(addTodo, async (c) => {
      const { id } = c.req.valid('param');
      await conversations.get(id);
      const { text } = c.req.valid('json');
      const todo: TodoItem = { id: `u-${randomUUID().slice(0, 8)}`, text, done: false };
      const payload = await change(id, (current) => ({
        todos: [...current, todo],
        changes: [{ kind: 'added', id: todo.id, text }],
      }));
      return c.json(payload, 201);
    })
    .openapi(patchTodo, async (c) => {
      const { id, todo_id: todoId } = c.req.valid('param');
      await conversations.get(id);
      const patch = c.req.valid('json');
      const payload = await change(id, (current) => {
        const existing = current.find((todo) => todo.id === todoId);
        if (existing === undefined) throw notFound('todo', todoId);
        const changes: TodoChange[] = [];
        const next = { ...existing };
        if (patch.text !== undefined && patch.text !== existing.text) {
          changes.push({ kind: 'edited', id: todoId, text: patch.text, previous_text: existing.text });
          next.text = patch.text;
        }
        if (patch.done !== undefined && patch.done !== existing.done) {
          changes.push({ kind: patch.done ? 'ticked' : 'unticked', id: todoId, text: next.text });
          next.done = patch.done;
        }
        return { todos: current.map((todo) => (todo.id === todoId ? next : todo)), changes };
      });
      return c.json(payload, 200);
    })
    .openapi(deleteTodo, async (c) => {
      const { id, todo_id: todoId } = c.req.valid('param');
      await conversations.get(id);
      const payload = await change(id, (current) => {
        const existing = current.find((todo) => todo.id === todoId);
        if (existing === undefined) throw notFound('todo', todoId);
        return {
          todos: current.filter((todo) => todo.id !== todoId),
          changes: [{ kind: 'removed', id: todoId, text: existing.text }],
        };
      });
      return c.json(payload, 200);
    });
}
