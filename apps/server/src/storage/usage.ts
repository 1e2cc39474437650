import { randomUUID } from 'node:crypto';
import type { ModelPricing, ProviderModel } from '@youyou/contracts';
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
  cache_read_tokens: number;
  cache_write_tokens: number;
  /** US dollars of the priced runs; null when none of the group's runs had prices. */
  cost: number | null;
  unpriced_runs: number;
}

/**
 * A run's cost in US dollars from its model's prices (per million tokens). Input tokens include
 * the cached ones: those read from the cache are billed at `cache_read`, those written to it at
 * `cache_write` (each defaulting to the input price).
 *
 * @example
 * costOf({ input_tokens: 1_000_000, output_tokens: 0, … }, { input: 3, output: 15 }); // 3
 */
export function costOf(usage: RunUsage, pricing: ModelPricing): number {
  const read = usage.cache_read_tokens ?? 0;
  const write = usage.cache_write_tokens ?? 0;
  const plain = Math.max(0, usage.input_tokens - read - write);
  const dollars =
    plain * pricing.input +
    read * (pricing.cache_read ?? pricing.input) +
    write * (pricing.cache_write ?? pricing.input) +
    usage.output_tokens * pricing.output;
  return dollars / 1_000_000;
}

/** The prices of a model id as runs carry it (`{provider name}/{model id}`), if it has any. */
export async function pricingOf(
  db: Kysely<Schema>,
  modelId: string | null,
): Promise<ModelPricing | undefined> {
  if (modelId === null) return undefined;
  const slash = modelId.indexOf('/');
  if (slash <= 0) return undefined;
  const row = await db
    .selectFrom('provider_configs')
    .select('models')
    .where('name', '=', modelId.slice(0, slash))
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const model = (JSON.parse(row.models) as ProviderModel[]).find(
    (entry) => entry.id === modelId.slice(slash + 1),
  );
  return model?.pricing;
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
    const pricing = await pricingOf(db, values.modelId);
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
        cache_read_tokens: values.usage.cache_read_tokens ?? 0,
        cache_write_tokens: values.usage.cache_write_tokens ?? 0,
        cost: pricing === undefined ? null : costOf(values.usage, pricing),
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
        coalesce(sum(duration_ms), 0) as duration_ms,
        coalesce(sum(cache_read_tokens), 0) as cache_read_tokens,
        coalesce(sum(cache_write_tokens), 0) as cache_write_tokens
      from usage where run_id in (select id from below)`.execute(db);
    const row = result.rows[0];
    return {
      input_tokens: Number(row?.input_tokens ?? 0),
      output_tokens: Number(row?.output_tokens ?? 0),
      tool_calls: Number(row?.tool_calls ?? 0),
      model_calls: Number(row?.model_calls ?? 0),
      duration_ms: Number(row?.duration_ms ?? 0),
      cache_read_tokens: Number(row?.cache_read_tokens ?? 0),
      cache_write_tokens: Number(row?.cache_write_tokens ?? 0),
    };
  }

  /**
   * Totals grouped by day, model, conversation or project; `conversationId` narrows them to one
   * conversation (its menu's usage).
   */
  async totals(grouping: UsageGrouping, filter: { conversationId?: string } = {}): Promise<UsageTotal[]> {
    const column = COLUMN_BY_GROUPING[grouping];
    let query = this.#db.selectFrom('usage');
    if (filter.conversationId !== undefined)
      query = query.where('conversation_id', '=', filter.conversationId);
    const rows = await query
      .select((expression) => [
        expression.ref(column).as('key'),
        expression.fn.countAll<number | string>().as('runs'),
        expression.fn.sum<number | string>('input_tokens').as('input_tokens'),
        expression.fn.sum<number | string>('output_tokens').as('output_tokens'),
        expression.fn.sum<number | string>('tool_calls').as('tool_calls'),
        expression.fn.sum<number | string>('duration_ms').as('duration_ms'),
        expression.fn.sum<number | string>('cache_read_tokens').as('cache_read_tokens'),
        expression.fn.sum<number | string>('cache_write_tokens').as('cache_write_tokens'),
        expression.fn.sum<number | string | null>('cost').as('cost'),
        expression.fn.count<number | string>('cost').as('priced_runs'),
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
      cache_read_tokens: Number(row.cache_read_tokens),
      cache_write_tokens: Number(row.cache_write_tokens),
      cost: row.cost === null ? null : Number(row.cost),
      unpriced_runs: Number(row.runs) - Number(row.priced_runs),
    }));
  }
}
