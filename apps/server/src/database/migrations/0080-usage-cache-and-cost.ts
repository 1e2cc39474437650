import type { WorkbenchMigration } from './migration.ts';

/**
 * Usage rows count prompt-cache tokens (read and written) and carry the run's cost when its model
 * has prices (spec §4.17, decision 0018). Cost is in US dollars; null when the model has no prices.
 */
export const usageCacheAndCostMigration: WorkbenchMigration = {
  name: '0080-usage-cache-and-cost',
  async up(db, dialect) {
    await db.schema
      .alterTable('usage')
      .addColumn('cache_read_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('usage')
      .addColumn('cache_write_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('usage')
      .addColumn('cost', dialect === 'postgres' ? 'double precision' : 'real')
      .execute();
  },
  async down(db) {
    // One column per statement: SQLite drops one at a time.
    for (const column of ['cost', 'cache_write_tokens', 'cache_read_tokens']) {
      await db.schema.alterTable('usage').dropColumn(column).execute();
    }
  },
};
