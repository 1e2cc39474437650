import type {
  PlanboardView,
  PlanStep,
  PlanUpdatePayload,
  TodoChange,
  TodoItem,
  TodoUpdatePayload,
} from '@youyou/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { PlanboardsTable, Schema } from '../database/index.ts';
import type { InsertEvents } from '../events/index.ts';

type PlanboardRow = Selectable<PlanboardsTable>;

function viewOf(row: PlanboardRow | undefined): PlanboardView {
  if (row === undefined) return { plan: { steps: [], version: 0 }, todos: { items: [], version: 0 } };
  return {
    plan: {
      steps: JSON.parse(row.plan) as PlanStep[],
      version: Number(row.plan_version),
      ...(row.plan_explanation === null ? {} : { explanation: row.plan_explanation }),
    },
    todos: { items: JSON.parse(row.todos) as TodoItem[], version: Number(row.todos_version) },
  };
}

/**
 * A conversation's plan and todos (spec §4.3 planboard). Every change takes the row (an upsert that
 * locks it on PostgreSQL), bumps the version and inserts the `plan.update` / `todo.update` event
 * with the whole list in the same transaction, so the versions every tab sees are gap-free.
 * User changes to todos are kept until the model has been told of them.
 *
 * @example
 * await planboards.get(conversationId); // { plan: { steps, version }, todos: { items, version } }
 */
export class PlanboardRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async get(conversationId: string, db: Kysely<Schema> = this.#db): Promise<PlanboardView> {
    return viewOf(
      await db
        .selectFrom('planboards')
        .selectAll()
        .where('conversation_id', '=', conversationId)
        .executeTakeFirst(),
    );
  }

  async #lock(conversationId: string, db: Kysely<Schema>): Promise<PlanboardRow> {
    const now = Date.now();
    return db
      .insertInto('planboards')
      .values({
        conversation_id: conversationId,
        plan: '[]',
        plan_version: 0,
        plan_explanation: null,
        todos: '[]',
        todos_version: 0,
        pending_changes: '[]',
        updated_at: now,
      })
      .onConflict((conflict) => conflict.column('conversation_id').doUpdateSet({ updated_at: now }))
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async setPlan(
    db: Kysely<Schema>,
    insert: InsertEvents,
    change: { conversationId: string; runId: string | null; steps: PlanStep[]; explanation?: string },
  ): Promise<PlanUpdatePayload> {
    const row = await this.#lock(change.conversationId, db);
    const payload: PlanUpdatePayload = {
      steps: change.steps,
      version: Number(row.plan_version) + 1,
      ...(change.explanation === undefined ? {} : { explanation: change.explanation }),
      updated_by: 'model',
      run_id: change.runId,
    };
    await db
      .updateTable('planboards')
      .set({
        plan: JSON.stringify(change.steps),
        plan_version: payload.version,
        plan_explanation: change.explanation ?? null,
      })
      .where('conversation_id', '=', change.conversationId)
      .execute();
    await insert([{ run_id: change.runId, type: 'plan.update', payload }]);
    return payload;
  }

  /**
   * Replaces the todos. `edit` gets the current list and returns the new one with what changed;
   * user changes are queued for the model.
   */
  async changeTodos(
    db: Kysely<Schema>,
    insert: InsertEvents,
    change: {
      conversationId: string;
      runId: string | null;
      author: 'model' | 'user';
      edit: (current: TodoItem[]) => { todos: TodoItem[]; changes: TodoChange[] };
    },
  ): Promise<TodoUpdatePayload> {
    const row = await this.#lock(change.conversationId, db);
    const { todos, changes } = change.edit(JSON.parse(row.todos) as TodoItem[]);
    const payload: TodoUpdatePayload = {
      todos,
      version: Number(row.todos_version) + 1,
      updated_by: change.author,
      ...(change.author === 'user' ? { changes } : {}),
      run_id: change.runId,
    };
    const pending =
      change.author === 'user'
        ? [...(JSON.parse(row.pending_changes) as TodoChange[]), ...changes]
        : (JSON.parse(row.pending_changes) as TodoChange[]);
    await db
      .updateTable('planboards')
      .set({
        todos: JSON.stringify(todos),
        todos_version: payload.version,
        pending_changes: JSON.stringify(pending),
      })
      .where('conversation_id', '=', change.conversationId)
      .execute();
    await insert([{ run_id: change.runId, type: 'todo.update', payload }]);
    return payload;
  }

  /** The user's todo changes the model has not been told of, taken (cleared) at once. */
  async takePendingChanges(conversationId: string): Promise<{ changes: TodoChange[]; todos: TodoItem[] }> {
    return this.#db.transaction().execute(async (transaction) => {
      const row = await transaction
        .selectFrom('planboards')
        .selectAll()
        .where('conversation_id', '=', conversationId)
        .executeTakeFirst();
      if (row === undefined || row.pending_changes === '[]') return { changes: [], todos: [] };
      const cleared = await transaction
        .updateTable('planboards')
        .set({ pending_changes: '[]' })
        .where('conversation_id', '=', conversationId)
        .where('pending_changes', '=', row.pending_changes)
        .executeTakeFirst();
      if (Number(cleared.numUpdatedRows) !== 1) return { changes: [], todos: [] };
      return {
        changes: JSON.parse(row.pending_changes) as TodoChange[],
        todos: JSON.parse(row.todos) as TodoItem[],
      };
    });
  }
}
