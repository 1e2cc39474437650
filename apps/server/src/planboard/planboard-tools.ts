import { randomUUID } from 'node:crypto';
import { continueWith, type Plugin, type ToolHandler } from '@youyou/agent';
import { planProblems, type PlanStep, type TodoChange, type TodoItem } from '@youyou/contracts';
import type { RunBindings } from '../run-bindings/index.ts';
import type { PlanboardRepository } from './planboard-repository.ts';

const STATUSES = ['pending', 'in_progress', 'done', 'skipped'] as const;

function stepsOf(raw: unknown): PlanStep[] {
  return (Array.isArray(raw) ? raw : []).map((item, index) => {
    const step = item as { id?: unknown; title?: unknown; status?: unknown; note?: unknown };
    return {
      id: typeof step.id === 'string' && step.id !== '' ? step.id : `step-${index + 1}`,
      title: String(step.title ?? ''),
      status: STATUSES.includes(step.status as PlanStep['status'])
        ? (step.status as PlanStep['status'])
        : 'pending',
      ...(typeof step.note === 'string' && step.note !== '' ? { note: step.note } : {}),
    };
  });
}

function progress(steps: readonly PlanStep[]): string {
  const done = steps.filter((step) => step.status === 'done' || step.status === 'skipped').length;
  const current = steps.find((step) => step.status === 'in_progress');
  return `${done}/${steps.length} steps done${current === undefined ? '' : `; now: ${current.title}`}`;
}

/**
 * `update_plan`: the model publishes its plan — every step with its status, at most one in
 * progress — and the Plan tab shows it live.
 *
 * @example
 * builder.addTool(updatePlanTool({ bindings, planboards }));
 */
export function updatePlanTool(options: {
  bindings: RunBindings;
  planboards: PlanboardRepository;
}): ToolHandler {
  return {
    name: 'update_plan',
    description:
      'Publishes your plan as the whole list of steps, at most one in_progress. Call it when you make a plan and whenever a step starts or ends; the user sees it live.',
    parameters: {
      type: 'object',
      properties: {
        steps: {
          type: 'array',
          minItems: 1,
          maxItems: 50,
          items: {
            type: 'object',
            properties: {
              id: { type: 'string', description: 'Stable id; default step-N.' },
              title: { type: 'string', minLength: 1, maxLength: 500 },
              status: { type: 'string', enum: [...STATUSES] },
              note: { type: 'string' },
            },
            required: ['title', 'status'],
          },
        },
        explanation: { type: 'string', description: 'One line on what changed.' },
      },
      required: ['steps'],
      additionalProperties: false,
    },
    mutating: true,
    async execute({ arguments: input }, context) {
      const binding = options.bindings.get(context.sessionId);
      if (binding === undefined)
        return {
          content: 'Error [INVALID_INPUT]: update_plan works inside a workbench conversation.',
          isError: true,
        };
      const steps = stepsOf(input.steps);
      const problems = planProblems(steps);
      if (problems.length > 0) {
        return {
          content: `Error [INVALID_INPUT]: The plan was not updated: ${problems.join('; ')}.`,
          isError: true,
        };
      }
      const explanation =
        typeof input.explanation === 'string' && input.explanation !== '' ? input.explanation : undefined;
      const payload = await binding.transact((transaction, insert) =>
        options.planboards.setPlan(transaction, insert, {
          conversationId: binding.conversationId,
          runId: binding.runId,
          steps,
          ...(explanation === undefined ? {} : { explanation }),
        }),
      );
      return {
        content: `Plan updated (version ${payload.version}): ${progress(steps)}.`,
        metadata: { version: payload.version },
      };
    },
  };
}

/**
 * `update_todos`: the model sets the conversation's todo list (whole), which the user can tick,
 * edit and extend in the Todos tab.
 *
 * @example
 * builder.addTool(updateTodosTool({ bindings, planboards }));
 */
export function updateTodosTool(options: {
  bindings: RunBindings;
  planboards: PlanboardRepository;
}): ToolHandler {
  return {
    name: 'update_todos',
    description:
      'Sets the todo list of this conversation (the whole list: keep the ids of existing items). The user can tick, edit or add todos too; you are told of their changes at your next step.',
    parameters: {
      type: 'object',
      properties: {
        todos: {
          type: 'array',
          maxItems: 100,
          items: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              text: { type: 'string', minLength: 1, maxLength: 1000 },
              done: { type: 'boolean' },
            },
            required: ['text'],
          },
        },
      },
      required: ['todos'],
      additionalProperties: false,
    },
    mutating: true,
    async execute({ arguments: input }, context) {
      const binding = options.bindings.get(context.sessionId);
      if (binding === undefined)
        return {
          content: 'Error [INVALID_INPUT]: update_todos works inside a workbench conversation.',
          isError: true,
        };
      const todos: TodoItem[] = (Array.isArray(input.todos) ? input.todos : []).map((item) => {
        const todo = item as { id?: unknown; text?: unknown; done?: unknown };
        return {
          id: typeof todo.id === 'string' && todo.id !== '' ? todo.id : randomUUID().slice(0, 8),
          text: String(todo.text ?? ''),
          done: todo.done === true,
        };
      });
      const ids = new Set<string>();
      for (const todo of todos) {
        if (ids.has(todo.id))
          return { content: `Error [INVALID_INPUT]: duplicate todo id "${todo.id}".`, isError: true };
        ids.add(todo.id);
      }
      const payload = await binding.transact((transaction, insert) =>
        options.planboards.changeTodos(transaction, insert, {
          conversationId: binding.conversationId,
          runId: binding.runId,
          author: 'model',
          edit: () => ({ todos, changes: [] }),
        }),
      );
      const open = todos.filter((todo) => !todo.done).length;
      return {
        content: `Todos updated (version ${payload.version}): ${todos.length} items, ${open} open. Ids: ${todos.map((todo) => todo.id).join(', ')}.`,
        metadata: { version: payload.version },
      };
    },
  };
}

/**
 * What the model is told of the user's todo changes.
 *
 * @example
 * describeTodoChanges([{ kind: 'ticked', id: 't1', text: 'Write tests' }], todos);
 */
export function describeTodoChanges(changes: readonly TodoChange[], todos: readonly TodoItem[]): string {
  const verbs: Record<TodoChange['kind'], string> = {
    added: 'added',
    ticked: 'ticked (marked done)',
    unticked: 'unticked (marked not done)',
    edited: 'edited',
    removed: 'removed',
  };
  const lines = changes.map((change) =>
    change.kind === 'edited'
      ? `- edited "${change.previous_text ?? ''}" to "${change.text}" (id ${change.id})`
      : `- ${verbs[change.kind]} "${change.text}" (id ${change.id})`,
  );
  const list = todos.map((todo) => `- [${todo.done ? 'x' : ' '}] ${todo.text} (id ${todo.id})`);
  return `The user changed the todo list:\n${lines.join('\n')}\nThe todo list is now:\n${list.length === 0 ? '(empty)' : list.join('\n')}`;
}

/**
 * Tells the model of the user's todo changes at the start of its next step: in the system prompt
 * of the next turn (TurnStart), or appended to the next tool result when a run is under way
 * (AfterToolUse), whichever comes first.
 *
 * @example
 * builder.addPlugin(planboardPlugin({ bindings, planboards }));
 */
export function planboardPlugin(options: { bindings: RunBindings; planboards: PlanboardRepository }): Plugin {
  const take = async (sessionId: string): Promise<string | undefined> => {
    const binding = options.bindings.get(sessionId);
    if (binding === undefined) return undefined;
    const { changes, todos } = await options.planboards.takePendingChanges(binding.conversationId);
    return changes.length === 0 ? undefined : describeTodoChanges(changes, todos);
  };
  return {
    id: 'workbench-planboard',
    displayName: 'Plan and todos',
    description: 'Tells the model of the todo changes the user made since its last step.',
    apply(hooks) {
      hooks.tap('TurnStart', async ({ sessionId, dynamicSections }) => {
        const note = await take(sessionId);
        return note === undefined
          ? undefined
          : continueWith<'TurnStart'>({ dynamicSections: [...dynamicSections, note] });
      });
      hooks.tap('AfterToolUse', async ({ sessionId, output }) => {
        const note = await take(sessionId);
        if (note === undefined) return undefined;
        return continueWith<'AfterToolUse'>({
          output: { content: `${output.content}\n\n[${note}]`, isError: output.isError },
        });
      });
    },
  };
}
