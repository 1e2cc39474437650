import { sql, type Kysely } from 'kysely';
import type { DialectName, WorkbenchMigration } from './migration.ts';

const COLUMNS =
  'id, conversation_id, project_id, run_id, call_id, tool_name, arguments_summary, outcome, error_code, duration_ms, policy, decided_by, card_id, started_at, ended_at';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
async function createAuditTable(db: Kysely<any>, name: string, conversationRequired: boolean): Promise<void> {
  await db.schema
    .createTable(name)
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('conversation_id', 'text', (column) =>
      (conversationRequired ? column.notNull() : column).references('conversations.id').onDelete('cascade'),
    )
    .addColumn('project_id', 'text')
    .addColumn('run_id', 'text', (column) => column.notNull())
    .addColumn('call_id', 'text', (column) => column.notNull())
    .addColumn('tool_name', 'text', (column) => column.notNull())
    .addColumn('arguments_summary', 'text', (column) => column.notNull())
    .addColumn('outcome', 'text', (column) => column.notNull())
    .addColumn('error_code', 'text')
    .addColumn('duration_ms', 'integer', (column) => column.notNull())
    .addColumn('policy', 'text', (column) => column.notNull())
    .addColumn('decided_by', 'text', (column) => column.notNull())
    .addColumn('card_id', 'text')
    .addColumn('started_at', 'bigint', (column) => column.notNull())
    .addColumn('ended_at', 'bigint', (column) => column.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
async function createIndexes(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('tool_audit_by_conversation')
    .on('tool_audit')
    .columns(['conversation_id', 'started_at'])
    .execute();
  await db.schema
    .createIndex('tool_audit_by_project')
    .on('tool_audit')
    .columns(['project_id', 'started_at'])
    .execute();
}

/**
 * SQLite cannot drop or add NOT NULL on a column: the table is rebuilt with the rows copied.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
async function rebuildSqlite(db: Kysely<any>, conversationRequired: boolean): Promise<void> {
  await createAuditTable(db, 'tool_audit_rebuilt', conversationRequired);
  await sql
    .raw(
      `insert into tool_audit_rebuilt (${COLUMNS}) select ${COLUMNS} from tool_audit${conversationRequired ? ' where conversation_id is not null' : ''}`,
    )
    .execute(db);
  await db.schema.dropTable('tool_audit').execute();
  await db.schema.alterTable('tool_audit_rebuilt').renameTo('tool_audit').execute();
  await createIndexes(db);
}

/**
 * The tool audit also keeps what a panel's button ran outside any conversation (issue 15,
 * decision 0023): `conversation_id` becomes optional, and every row says who asked (`actor`:
 * `agent` for a run's call, `user` for a button) and which registry source owns what ran
 * (`source`: `extension:<id>` for an extension's panel or card).
 */
export const uiActionAuditMigration: WorkbenchMigration = {
  name: '0088-ui-action-audit',
  async up(db, dialect: DialectName) {
    if (dialect === 'sqlite') await rebuildSqlite(db, false);
    else await sql`alter table tool_audit alter column conversation_id drop not null`.execute(db);
    await db.schema.alterTable('tool_audit').addColumn('source', 'text').execute();
    await db.schema
      .alterTable('tool_audit')
      .addColumn('actor', 'text', (column) => column.notNull().defaultTo('agent'))
      .execute();
    await db.schema
      .createIndex('tool_audit_by_source')
      .on('tool_audit')
      .columns(['source', 'started_at'])
      .execute();
  },
  async down(db, dialect: DialectName) {
    await db.schema.dropIndex('tool_audit_by_source').execute();
    // One column per statement: SQLite drops one at a time.
    for (const column of ['actor', 'source'])
      await db.schema.alterTable('tool_audit').dropColumn(column).execute();
    // Calls outside a conversation have no place in the older table.
    if (dialect === 'sqlite') await rebuildSqlite(db, true);
    else {
      await sql`delete from tool_audit where conversation_id is null`.execute(db);
      await sql`alter table tool_audit alter column conversation_id set not null`.execute(db);
    }
  },
};
