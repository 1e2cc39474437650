// The throughput baseline: the same fake model stream through the same provider and agent, merged
// and written to an SSE client as the server does, with no persistence and no workbench around it.
//   node --import tsx bench/server/pipe-server.ts <fake model URL>
// Prints its URL; GET /run streams one turn.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentBuilder, InMemorySessionStorage, silentLogger } from '@youyou/agent';
import { openaiCompatible } from '@youyou/providers';

const modelUrl = process.argv[2];
if (modelUrl === undefined) throw new Error('usage: pipe-server.ts <fake model URL>');
const agent = await new AgentBuilder({ cwd: process.cwd(), home: process.cwd() })
  .addProvider(
    openaiCompatible({
      id: 'fake',
      baseURL: modelUrl,
      models: [{ id: 'fake-model' }],
      modelIdPrefix: 'fake/',
      discoverModels: false,
    }),
  )
  .setSessionStorage(new InMemorySessionStorage())
  .setLogger(silentLogger)
  .build();

const server = createServer((request, response) => {
  void (async () => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    const session = await agent.newSession();
    let seq = 0;
    // Deltas merged per 8 ms, as the server's event writer merges them: only persistence differs.
    let pending: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    const flush = (): void => {
      timer = undefined;
      if (pending.length === 0) return;
      const data = JSON.stringify({ seq: ++seq, type: 'message.delta', payload: { text: pending.join('') } });
      pending = [];
      response.write(`id: ${seq}\ndata: ${data}\n\n`);
    };
    for await (const event of session.send('Stream, please')) {
      if (event.type !== 'TextDelta') continue;
      pending.push(event.text);
      timer ??= setTimeout(flush, 8);
      if (response.writableNeedDrain) await new Promise((resolve) => response.once('drain', resolve));
    }
    clearTimeout(timer);
    flush();
    response.end(`id: ${++seq}\ndata: ${JSON.stringify({ seq, type: 'run.completed', payload: {} })}\n\n`);
    await session.close();
  })().catch((error: unknown) => {
    response.destroy(error instanceof Error ? error : new Error(String(error)));
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.once('SIGTERM', () => {
  server.close();
  void agent.shutdown().then(() => process.exit(0));
});
