import { sql, type Kysely, type Selectable } from 'kysely';
import type { RunPhase, RunsTable, RunStatus, Schema } from '../database/index.ts';
import { notFound } from '../errors/index.ts';
import type { RunDescription } from '../events/index.ts';

export type RunRow = Selectable<RunsTable>;

/** The columns the message tree needs, one row per top-level run. */
export type TreeRun = Pick<RunRow, 'id' | 'previous_run_id' | 'user_message_id' | 'status' | 'created_at'>;

export function describeRun(row: RunRow): RunDescription {
  return {
    id: row.id,
    conversation_id: row.conversation_id,
    parent_run_id: row.parent_run_id,
    previous_run_id: row.previous_run_id,
    user_message_id: row.user_message_id,
    kind: row.kind,
    status: row.status,
    phase: row.phase,
    model_id: row.model_id,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** A run as the API shows it. */
export interface RunView extends RunDescription {
  project_id: string | null;
  /** The agent profile the run was executed with. */
  profile_id: string | null;
  error: unknown;
  usage: unknown;
  started_at: string | null;
  ended_at: string | null;
}

export function runViewOfRow(row: RunRow): RunView {
  return {
    ...describeRun(row),
    project_id: row.project_id,
    profile_id: row.profile_id,
    error: row.error === null ? null : (JSON.parse(row.error) as unknown),
    usage: row.usage === null ? null : (JSON.parse(row.usage) as unknown),
    started_at: row.started_at === null ? null : new Date(row.started_at).toISOString(),
    ended_at: row.ended_at === null ? null : new Date(row.ended_at).toISOString(),
  };
}

/**
 * Runs (spec §4.2): lookups, the rows of a conversation's tree, children for cascading cancels.
 *
 * @example
 * const run = await runs.get(runId);
 */
export class RunRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async find(id: string, db: Kysely<Schema> = this.#db): Promise<RunRow | undefined> {
    return db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async get(id: string, db: Kysely<Schema> = this.#db): Promise<RunRow> {
    const row = await this.find(id, db);
    if (row === undefined) throw notFound('run', id);
    return row;
  }

  /** Every top-level run of a conversation, oldest first: the nodes of its message tree. */
  async tree(conversationId: string, db: Kysely<Schema> = this.#db): Promise<TreeRun[]> {
    return db
      .selectFrom('runs')
      .select(['id', 'previous_run_id', 'user_message_id', 'status', 'created_at'])
      .where('conversation_id', '=', conversationId)
      .where('parent_run_id', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async inFlight(conversationId: string, db: Kysely<Schema> = this.#db): Promise<RunRow | undefined> {
    return db
      .selectFrom('runs')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('parent_run_id', 'is', null)
      .where('status', 'in', ['pending', 'running', 'waiting_hitl'])
      .executeTakeFirst();
  }

  /** Every run below `runId` (children, grandchildren…). */
  async descendants(runId: string, db: Kysely<Schema> = this.#db): Promise<RunRow[]> {
    const result = await sql<RunRow>`with recursive below(id) as (
        select id from runs where parent_run_id = ${runId}
        union all
        select runs.id from runs join below on runs.parent_run_id = below.id
      )
      select runs.* from runs where id in (select id from below)`.execute(db);
    return result.rows;
  }

  /** Runs not in a final state, optionally only those of some instances. */
  async unfinished(db: Kysely<Schema> = this.#db): Promise<RunRow[]> {
    return db
      .selectFrom('runs')
      .selectAll()
      .where('status', 'in', ['pending', 'running', 'waiting_hitl'])
      .orderBy('created_at')
      .execute();
  }

  async setState(
    id: string,
    state: {
      status?: RunStatus;
      phase?: RunPhase;
      error?: string | null;
      usage?: string | null;
      instance_id?: string | null;
      started_at?: number;
      ended_at?: number;
      cancel_requested?: number;
    },
    db: Kysely<Schema> = this.#db,
  ): Promise<void> {
    await db.updateTable('runs').set(state).where('id', '=', id).execute();
  }
}
