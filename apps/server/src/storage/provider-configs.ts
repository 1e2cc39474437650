import type { Kysely, Selectable } from 'kysely';
import type { ProviderConfigsTable, Schema } from '../database/index.ts';
import { notFound } from '../errors/index.ts';
import type { ProviderModel } from '@youyou/contracts';

export type ProviderConfigRow = Selectable<ProviderConfigsTable>;

/** A model as configured on a provider (the contract's shape, stored as JSON on the row). */
export type ConfiguredModel = ProviderModel;

/** A provider as the API shows it: never its key, only whether it has one. */
export interface ProviderView {
  id: string;
  name: string;
  kind: 'openai-compatible' | 'anthropic';
  base_url: string;
  has_api_key: boolean;
  headers: Record<string, string>;
  models: ConfiguredModel[];
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

/** The further options a provider row keeps as JSON (`options`): so far its extra headers. */
export interface ProviderOptions {
  headers?: Record<string, string>;
}

/** A row's options, `{}` when the column holds nothing usable. */
export function providerOptionsOfRow(row: ProviderConfigRow): ProviderOptions {
  try {
    const parsed = JSON.parse(row.options) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as ProviderOptions) : {};
  } catch {
    return {};
  }
}

export function providerViewOfRow(row: ProviderConfigRow): ProviderView {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    base_url: row.base_url,
    has_api_key: row.secret_id !== null,
    headers: providerOptionsOfRow(row).headers ?? {},
    models: JSON.parse(row.models) as ConfiguredModel[],
    enabled: row.enabled === 1,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/**
 * Model provider configurations (spec §4.7). Keys live in the secret store; rows only point there.
 *
 * @example
 * const rows = await providerConfigs.list();
 */
export class ProviderConfigRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async list(): Promise<ProviderConfigRow[]> {
    return this.#db.selectFrom('provider_configs').selectAll().orderBy('name').execute();
  }

  async get(id: string): Promise<ProviderConfigRow> {
    const row = await this.#db
      .selectFrom('provider_configs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined) throw notFound('provider', id);
    return row;
  }

  async insert(row: ProviderConfigRow, db: Kysely<Schema> = this.#db): Promise<void> {
    await db.insertInto('provider_configs').values(row).execute();
  }

  async update(
    id: string,
    changes: Partial<Omit<ProviderConfigRow, 'id' | 'owner' | 'created_at'>>,
    db: Kysely<Schema> = this.#db,
  ): Promise<void> {
    const result = await db
      .updateTable('provider_configs')
      .set(changes)
      .where('id', '=', id)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw notFound('provider', id);
  }

  async delete(id: string, db: Kysely<Schema> = this.#db): Promise<void> {
    await db.deleteFrom('provider_configs').where('id', '=', id).execute();
  }
}
