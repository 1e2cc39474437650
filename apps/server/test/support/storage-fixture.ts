import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type WorkbenchDatabase } from '../../src/database/index.ts';
import { EventHub, EventLog } from '../../src/events/index.ts';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases.ts';
import { createTempDirectories } from './temp-directories.ts';

/** An opened, migrated database with an event log, for storage-level tests. */
export interface StorageFixture {
  database: WorkbenchDatabase;
  eventLog: EventLog;
  hub: EventHub;
  cleanup(): Promise<void>;
}

const TABLES = [
  'events',
  'agent_sessions',
  'runs',
  'uploads',
  'artifacts',
  'conversations',
  'projects',
  'settings',
  'provider_configs',
  'secrets',
  'usage',
  'memories',
  'instances',
];

/**
 * Fresh storages for contract suites: a new SQLite file per call, or (PostgreSQL) one schema per
 * test file, emptied per call.
 *
 * @example
 * const fixtures = storageFixtures('postgres');
 * describeSessionStorageContract('…', async () => { const f = await fixtures.create(); … });
 */
export function storageFixtures(kind: DatabaseKind): {
  create(): Promise<StorageFixture>;
  dispose(): Promise<void>;
} {
  let shared: Promise<{ testDatabase: TestDatabase; database: WorkbenchDatabase }> | undefined;
  const withLog = (database: WorkbenchDatabase, cleanup: () => Promise<void>): StorageFixture => {
    const hub = new EventHub();
    return {
      database,
      hub,
      eventLog: new EventLog({ database, hub, instanceId: 'test', deltaIntervalMs: 2 }),
      cleanup,
    };
  };
  return {
    async create() {
      if (kind === 'sqlite') {
        const directories = await createTempDirectories();
        const database = openDatabase({ sqliteFile: join(directories.root, 'test.db') });
        await migrateToLatest(database);
        return withLog(database, async () => {
          await database.close();
          await rm(directories.root, { recursive: true, force: true });
        });
      }
      shared ??= (async () => {
        const testDatabase = await createTestDatabase('postgres');
        const database = openDatabase({ databaseUrl: testDatabase.url as string, poolSize: 4 });
        await migrateToLatest(database);
        return { testDatabase, database };
      })();
      const { database } = await shared;
      await sql`truncate ${sql.join(TABLES.map((table) => sql.table(table)))} cascade`.execute(database.db);
      return withLog(database, async () => {});
    },
    async dispose() {
      if (shared === undefined) return;
      const { testDatabase, database } = await shared;
      await database.close();
      await testDatabase.drop();
    },
  };
}
