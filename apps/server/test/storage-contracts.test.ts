import { describeMemoryStorageContract, describeSessionStorageContract } from '@youyou/testing/contracts';
import { afterAll } from 'vitest';
import { SqlMemoryStorage } from '../src/memory/index.ts';
import { WorkbenchSessionStorage } from '../src/storage/index.ts';
import { DATABASE_KINDS } from './support/databases.ts';
import { storageFixtures } from './support/storage-fixture.ts';

for (const kind of DATABASE_KINDS) {
  const fixtures = storageFixtures(kind);
  afterAll(() => fixtures.dispose());

  describeSessionStorageContract(`WorkbenchSessionStorage on ${kind}`, async () => {
    const fixture = await fixtures.create();
    return {
      storage: new WorkbenchSessionStorage({ database: fixture.database, eventLog: fixture.eventLog }),
      cleanup: fixture.cleanup,
    };
  });

  describeSessionStorageContract(
    `WorkbenchSessionStorage on ${kind}, each call through a fresh instance`,
    async () => {
      const fixture = await fixtures.create();
      const fresh = (): WorkbenchSessionStorage =>
        new WorkbenchSessionStorage({ database: fixture.database, eventLog: fixture.eventLog });
      return {
        storage: {
          append: (sessionId, records) => fresh().append(sessionId, records),
          load: (sessionId) => fresh().load(sessionId),
          list: (options) => fresh().list(options),
          find: (query) => fresh().find(query),
          delete: (sessionId) => fresh().delete(sessionId),
        },
        cleanup: fixture.cleanup,
      };
    },
  );

  describeMemoryStorageContract(`SqlMemoryStorage on ${kind}`, async () => {
    const fixture = await fixtures.create();
    return { storage: new SqlMemoryStorage(fixture.database.db), cleanup: fixture.cleanup };
  });
}
