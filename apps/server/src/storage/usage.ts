import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Schema } from '../database/index.ts';
import type { RunUsage } from '../events/index.ts';

/** One group of the usage summary. */
export interface UsageTotal {
  key: string | null;
  runs: number;
  input_tokens: number;
  output_tokens: number;
  tool_calls: number;
  duration_ms: number;
}

export type UsageGrouping = 'day' | 'model' | 'conversation' | 'project';

const COLUMN_BY_GROUPING = {
  day: 'day',
  model: 'model_id',
  conversation: 'conversation_id',
  project: 'project_id',
} as const;

/**
 * Per-run usage rows and their totals by day, model, conversation or project (spec §4.17).
 *
 * @example
 * const byDay = await usage.totals('day');
 */
export class UsageRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async record(
    values: {
      runId: string;
      conversationId: string;
      projectId: string | null;
      modelId: string | null;
      usage: RunUsage;
    },
    db: Kysely<Schema> = this.#db,
  ): Promise<void> {
    const now = Date.now();
    await db
      .insertInto('usage')
      .values({
        id: randomUUID(),
        owner: null,
        run_id: values.runId,
        conversation_id: values.conversationId,
        project_id: values.projectId,
        model_id: values.modelId,
        input_tokens: values.usage.input_tokens,
        output_tokens: values.usage.output_tokens,
        tool_calls: values.usage.tool_calls,
        model_calls: values.usage.model_calls,
        duration_ms: values.usage.duration_ms,
        day: new Date(now).toISOString().slice(0, 10),
        created_at: now,
      })
      .execute();
  }

  /** The summed usage rows of every run below `runId` (its sub-agents, theirs …). */
  async ofDescendants(runId: string, db: Kysely<Schema> = this.#db): Promise<RunUsage> {
    const result = await sql<Record<keyof RunUsage, number | string | null>>`with recursive below(id) as (
        select id from runs where parent_run_id = ${runId}
        union all
        select runs.id from runs join below on runs.parent_run_id = below.id
      )
      select coalesce(sum(input_tokens), 0) as input_tokens, coalesce(sum(output_tokens), 0) as output_tokens,
        coalesce(sum(tool_calls), 0) as tool_calls, coalesce(sum(model_calls), 0) as model_calls,
        coalesce(sum(duration_ms), 0) as duration_ms
      from usage where run_id in (select id from below)`.execute(db);
    const row = result.rows[0];
    return {
      input_tokens: Number(row?.input_tokens ?? 0),
      output_tokens: Number(row?.output_tokens ?? 0),
      tool_calls: Number(row?.tool_calls ?? 0),
      model_calls: Number(row?.model_calls ?? 0),
      duration_ms: Number(row?.duration_ms ?? 0),
    };
  }

  async totals(grouping: UsageGrouping): Promise<UsageTotal[]> {
    const column = COLUMN_BY_GROUPING[grouping];
    const rows = await this.#db
      .selectFrom('usage')
      .select((expression) => [
        expression.ref(column).as('key'),
        expression.fn.countAll<number | string>().as('runs'),
        expression.fn.sum<number | string>('input_tokens').as('input_tokens'),
        expression.fn.sum<number | string>('output_tokens').as('output_tokens'),
        expression.fn.sum<number | string>('tool_calls').as('tool_calls'),
        expression.fn.sum<number | string>('duration_ms').as('duration_ms'),
      ])
      .groupBy(column)
      .orderBy(column)
      .execute();
    return rows.map((row) => ({
      key: row.key,
      runs: Number(row.runs),
      input_tokens: Number(row.input_tokens),
      output_tokens: Number(row.output_tokens),
      tool_calls: Number(row.tool_calls),
      duration_ms: Number(row.duration_ms),
    }));
  }
}
