import type { Kysely } from 'kysely';
import type { Schema } from '../database/index.ts';

/** Setting scopes, lowest first (spec §4.9). */
export type SettingScope = 'system' | 'user' | 'project' | 'conversation';

/**
 * Layered key/value settings stored as JSON.
 *
 * @example
 * await settings.set('user', '', 'default_model', 'openai/gpt-4.1-mini');
 * const model = await settings.get<string>('user', '', 'default_model');
 */
export class SettingsRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async get<T>(scope: SettingScope, scopeId: string, key: string): Promise<T | undefined> {
    const row = await this.#db
      .selectFrom('settings')
      .select('value')
      .where('scope', '=', scope)
      .where('scope_id', '=', scopeId)
      .where('key', '=', key)
      .executeTakeFirst();
    return row === undefined ? undefined : (JSON.parse(row.value) as T);
  }

  async all(scope: SettingScope, scopeId: string): Promise<Record<string, unknown>> {
    const rows = await this.#db
      .selectFrom('settings')
      .select(['key', 'value'])
      .where('scope', '=', scope)
      .where('scope_id', '=', scopeId)
      .execute();
    return Object.fromEntries(rows.map((row) => [row.key, JSON.parse(row.value) as unknown]));
  }

  async set(scope: SettingScope, scopeId: string, key: string, value: unknown): Promise<void> {
    const now = Date.now();
    const text = JSON.stringify(value);
    await this.#db
      .insertInto('settings')
      .values({ scope, scope_id: scopeId, key, value: text, updated_at: now })
      .onConflict((conflict) =>
        conflict.columns(['scope', 'scope_id', 'key']).doUpdateSet({ value: text, updated_at: now }),
      )
      .execute();
  }

  async remove(scope: SettingScope, scopeId: string, key: string): Promise<void> {
    await this.#db
      .deleteFrom('settings')
      .where('scope', '=', scope)
      .where('scope_id', '=', scopeId)
      .where('key', '=', key)
      .execute();
  }
}
