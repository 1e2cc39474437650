import { z } from 'zod';

/**
 * The planboard (spec agent-system-skeleton-design-r4 §1.1 right column, §4.3): a conversation's
 * plan (steps, one in progress at a time) and its todos. Each `plan.update` / `todo.update` event
 * carries the whole list with a version that grows by one per change.
 */

export const PLAN_STEP_STATUSES = ['pending', 'in_progress', 'done', 'skipped'] as const;
export type PlanStepStatus = (typeof PLAN_STEP_STATUSES)[number];

export const planStepSchema = z.object({
  id: z.string().min(1).max(64),
  title: z.string().min(1).max(500),
  status: z.enum(PLAN_STEP_STATUSES),
  note: z.string().max(2000).optional(),
});
export type PlanStep = z.infer<typeof planStepSchema>;

export const todoItemSchema = z.object({
  id: z.string().min(1).max(64),
  text: z.string().min(1).max(1000),
  done: z.boolean(),
});
export type TodoItem = z.infer<typeof todoItemSchema>;

/** Who made a change. */
export type PlanboardAuthor = 'model' | 'user';

/** The payload of `plan.update`: the whole plan. */
export const planUpdatePayloadSchema = z.object({
  steps: z.array(planStepSchema),
  version: z.number(),
  /** The model's one-line explanation of the change, when it gave one. */
  explanation: z.string().optional(),
  updated_by: z.enum(['model', 'user']),
  run_id: z.string().nullable(),
});
export type PlanUpdatePayload = z.infer<typeof planUpdatePayloadSchema>;

/** What the user changed in the todos (the model is told at its next step). */
export const todoChangeSchema = z.object({
  kind: z.enum(['added', 'ticked', 'unticked', 'edited', 'removed']),
  id: z.string(),
  text: z.string(),
  /** For `edited`: the text before. */
  previous_text: z.string().optional(),
});
export type TodoChange = z.infer<typeof todoChangeSchema>;

/** The payload of `todo.update`: the whole list. */
export const todoUpdatePayloadSchema = z.object({
  todos: z.array(todoItemSchema),
  version: z.number(),
  updated_by: z.enum(['model', 'user']),
  /** For a user's change: what changed. */
  changes: z.array(todoChangeSchema).optional(),
  run_id: z.string().nullable(),
});
export type TodoUpdatePayload = z.infer<typeof todoUpdatePayloadSchema>;

/**
 * The planboard's event types, spread into the contract's event registry.
 *
 * @example
 * PLAN_EVENT_PAYLOAD_SCHEMAS['todo.update'].parse(event.payload);
 */
export const PLAN_EVENT_PAYLOAD_SCHEMAS = {
  'plan.update': planUpdatePayloadSchema,
  'todo.update': todoUpdatePayloadSchema,
} as const;

/** A conversation's planboard as `GET /api/conversations/:id/planboard` returns it. */
export const planboardViewSchema = z.object({
  plan: z.object({ steps: z.array(planStepSchema), version: z.number(), explanation: z.string().optional() }),
  todos: z.object({ items: z.array(todoItemSchema), version: z.number() }),
});
export type PlanboardView = z.infer<typeof planboardViewSchema>;

/** `POST /api/conversations/:id/todos`: a todo the user adds. */
export const todoCreateSchema = z.object({ text: z.string().trim().min(1).max(1000) });

/** `PATCH /api/conversations/:id/todos/:todo_id`: tick, untick or edit. */
export const todoPatchSchema = z
  .object({ done: z.boolean().optional(), text: z.string().trim().min(1).max(1000).optional() })
  .refine((value) => value.done !== undefined || value.text !== undefined, 'give done or text');

/**
 * Problems with a plan the model proposes: unique step ids, at most one step in progress.
 *
 * @example
 * planProblems([{ id: 'a', title: 'A', status: 'in_progress' }, { id: 'b', title: 'B', status: 'in_progress' }]);
 * // ['at most one step may be in_progress (a, b are)']
 */
export function planProblems(steps: readonly PlanStep[]): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const step of steps) {
    if (ids.has(step.id)) problems.push(`duplicate step id "${step.id}"`);
    ids.add(step.id);
  }
  const running = steps.filter((step) => step.status === 'in_progress');
  if (running.length > 1) {
    problems.push(`at most one step may be in_progress (${running.map((step) => step.id).join(', ')} are)`);
  }
  return problems;
}
