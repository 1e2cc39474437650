import {
  ExtensionManifestSchema,
  ExtensionPermissionsSchema,
  type ExtensionManifest,
  type ExtensionPermissions,
  type ExtensionState,
} from '@youyou/contracts';
import type { Kysely } from 'kysely';
import type { Schema } from '../database/index.ts';

/** An installed extension as stored. */
export interface ExtensionRecord {
  id: string;
  version: string;
  apiVersion: string;
  manifest: ExtensionManifest;
  permissions: ExtensionPermissions;
  state: ExtensionState;
  installedAt: number;
  updatedAt: number;
}

/**
 * The `extensions` table (installed extensions with the permissions accepted at install) and
 * `registry_sources` (per-source switches of the unified registry).
 *
 * @example
 * await repository.upsert(record);
 * const all = await repository.list();
 */
export class ExtensionRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async list(): Promise<ExtensionRecord[]> {
    const rows = await this.#db.selectFrom('extensions').selectAll().orderBy('id').execute();
    return rows.map((row) => ({
      id: row.id,
      version: row.version,
      apiVersion: row.api_version,
      manifest: ExtensionManifestSchema.parse(JSON.parse(row.manifest)),
      permissions: ExtensionPermissionsSchema.parse(JSON.parse(row.permissions)),
      state: row.state,
      installedAt: Number(row.installed_at),
      updatedAt: Number(row.updated_at),
    }));
  }

  /** Inserts or replaces (a reinstall keeps `installed_at`). */
  async upsert(record: ExtensionRecord): Promise<void> {
    const values = {
      id: record.id,
      owner: null,
      version: record.version,
      api_version: record.apiVersion,
      manifest: JSON.stringify(record.manifest),
      permissions: JSON.stringify(record.permissions),
      state: record.state,
      installed_at: record.installedAt,
      updated_at: record.updatedAt,
    };
    await this.#db
      .insertInto('extensions')
      .values(values)
      .onConflict((conflict) =>
        conflict.column('id').doUpdateSet({
          version: values.version,
          api_version: values.api_version,
          manifest: values.manifest,
          permissions: values.permissions,
          state: values.state,
          updated_at: values.updated_at,
        }),
      )
      .execute();
  }

  async setState(id: string, state: ExtensionState, at: number): Promise<void> {
    await this.#db.updateTable('extensions').set({ state, updated_at: at }).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.#db.deleteFrom('extensions').where('id', '=', id).execute();
  }

  /** Sources switched off (`builtin`, `user`, `profile`). */
  async disabledSources(): Promise<string[]> {
    const rows = await this.#db
      .selectFrom('registry_sources')
      .select('source')
      .where('enabled', '=', 0)
      .execute();
    return rows.map((row) => row.source);
  }

  async setSource(source: string, enabled: boolean, at: number): Promise<void> {
    await this.#db
      .insertInto('registry_sources')
      .values({ source, enabled: enabled ? 1 : 0, updated_at: at })
      .onConflict((conflict) =>
        conflict.column('source').doUpdateSet({ enabled: enabled ? 1 : 0, updated_at: at }),
      )
      .execute();
  }
}
