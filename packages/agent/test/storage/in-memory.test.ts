import { InMemoryMemoryStorage, InMemorySessionStorage } from '@youyou/agent';
import { describeMemoryStorageContract } from '../contracts/memory-storage.contract.ts';
import { describeSessionStorageContract } from '../contracts/session-storage.contract.ts';

describeSessionStorageContract('InMemorySessionStorage', async () => ({
  storage: new InMemorySessionStorage(),
}));

describeMemoryStorageContract('InMemoryMemoryStorage', async () => ({
  storage: new InMemoryMemoryStorage(),
}));
