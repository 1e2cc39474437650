import type { WorkbenchMigration } from './migration.ts';

/**
 * The chat model was stored as `default_model`; the settings schema names model routes by kind
 * (`models.chat`, `models.lightweight` …, spec §4.7).
 */
export const settingsKeysMigration: WorkbenchMigration = {
  name: '0030-settings-keys',
  async up(db) {
    await db.updateTable('settings').set({ key: 'models.chat' }).where('key', '=', 'default_model').execute();
  },
  async down(db) {
    await db.updateTable('settings').set({ key: 'default_model' }).where('key', '=', 'models.chat').execute();
  },
};
