import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
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
