import type { WorkbenchMigration } from './migration.ts';

/**
 * Installed extensions (spec §4.6) with the manifest and the permissions accepted at install
 * (recorded, spec "权限清单在装载时展示并记录"), and the unified registry's per-source switches
 * (spec §4.1 rule 4: disable everything from one source). The files live under the data
 * directory (`extensions/installed/<id>`).
 */
export const extensionsMigration: WorkbenchMigration = {
  name: '0070-extensions',
  async up(db) {
    await db.schema
      .createTable('extensions')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('owner', 'text')
      .addColumn('version', 'text', (column) => column.notNull())
      .addColumn('api_version', 'text', (column) => column.notNull())
      .addColumn('manifest', 'text', (column) => column.notNull())
      .addColumn('permissions', 'text', (column) => column.notNull())
      .addColumn('state', 'text', (column) => column.notNull())
      .addColumn('installed_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('registry_sources')
      .addColumn('source', 'text', (column) => column.primaryKey())
      .addColumn('enabled', 'integer', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('registry_sources').execute();
    await db.schema.dropTable('extensions').execute();
  },
};
