// Run by ../storage/file-session-storage.test.ts: appends 50 records, says so, then appends one huge record
// until the parent kills it with SIGKILL part-way through the write.
import { JsonlSessionStorage } from '../../src/storage/jsonl-session-storage.ts';

const directory = process.argv[2] ?? '';
const storage = new JsonlSessionStorage({ directory });
for (let sequence = 0; sequence < 50; sequence += 1) {
  await storage.append('crash', [
    {
      type: 'user_message',
      sequence,
      timestamp: sequence,
      turnId: 't',
      content: [{ type: 'text', text: `message ${String(sequence)}` }],
    },
  ]);
}
process.stdout.write('ready\n');
const huge = 'x'.repeat(64 * 1024 * 1024);
await storage.append('crash', [
  { type: 'user_message', sequence: 50, timestamp: 50, turnId: 't', content: [{ type: 'text', text: huge }] },
]);
setInterval(() => undefined, 1000);
