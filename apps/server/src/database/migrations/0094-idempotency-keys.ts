import type { WorkbenchMigration } from './migration.ts';

/**
 * Idempotent sends (issue 27): the first answer to a request that carried an `Idempotency-Key`,
 * kept in the database (not in one server's memory) so a retry that reaches another instance on
 * PostgreSQL gets the same run. The row is written in the transaction that creates the run.
 */
export const idempotencyKeysMigration: WorkbenchMigration = {
  name: '0094-idempotency-keys',
  async up(db) {
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('scope', 'text', (column) => column.notNull())
      .addColumn('key', 'text', (column) => column.notNull())
      .addColumn('request_hash', 'text', (column) => column.notNull())
      .addColumn('conversation_id', 'text', (column) =>
        column.notNull().references('conversations.id').onDelete('cascade'),
      )
      .addColumn('run_id', 'text', (column) => column.notNull())
      .addColumn('user_message_id', 'text', (column) => column.notNull())
      .addColumn('seq', 'integer', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key'])
      .execute();
    await db.schema
      .createIndex('idempotency_keys_by_age')
      .on('idempotency_keys')
      .column('created_at')
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('idempotency_keys').execute();
  },
};
