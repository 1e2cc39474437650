import type { MemoryStorage, SessionStorage } from '@youyou/agent';
import { afterAll } from 'vitest';
import { SqlMemoryStorage, WorkbenchSessionStorage } from '../src/storage/index.ts';
import { DATABASE_KINDS } from './support/databases.ts';
import { storageFixtures } from './support/storage-fixture.ts';

type Fixture<Storage> = () => Promise<{ storage: Storage; cleanup?: () => Promise<void> }>;

// The agent's shared contract suites live in its test folder, another TypeScript project: loaded
// by URL so the compiler does not try to rewrite a path across projects.
const contracts = new URL('../../../packages/agent/test/contracts/', import.meta.url);
const { describeSessionStorageContract } = (await import(
  new URL('session-storage.contract.ts', contracts).href
)) as {
  describeSessionStorageContract: (name: string, create: Fixture<SessionStorage>) => void;
};
const { describeMemoryStorageContract } = (await import(
  new URL('memory-storage.contract.ts', contracts).href
)) as {
  describeMemoryStorageContract: (name: string, create: Fixture<MemoryStorage>) => void;
};

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
