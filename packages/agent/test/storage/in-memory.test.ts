import { InMemoryMemoryStorage, InMemorySessionStorage } from '@youyou/agent';
import { describeMemoryStorageContract } from '@youyou/testing/contracts';
import { describeSessionStorageContract } from '@youyou/testing/contracts';

describeSessionStorageContract('InMemorySessionStorage', async () => ({
  storage: new InMemorySessionStorage(),
}));

describeMemoryStorageContract('InMemoryMemoryStorage', async () => ({
  storage: new InMemoryMemoryStorage(),
}));
