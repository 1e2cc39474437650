// Starts a fake model server from the command line, for scripts and browser tests:
//   tsx packages/testing/src/fake-servers/cli.ts openai [--port 0] [--script replies.json] [--api-key KEY]
// prints the provider base URL on stdout and serves until interrupted. A script file holds
// `{ "script": [FakeReply…], "fallback": FakeReply | "echo" }` or a bare array of replies;
// without one, every request is echoed.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { startFakeAnthropic, startFakeOpenAI } from './fake-server.ts';
import type { FakeServerOptions } from './fake-server.ts';
import type { FakeReply } from './fake-script.ts';

const usage = 'usage: cli.ts openai|anthropic [--port N] [--script file.json] [--api-key KEY]';

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '0' },
      script: { type: 'string' },
      'api-key': { type: 'string' },
    },
  });
  const wire = positionals[0];
  if (wire !== 'openai' && wire !== 'anthropic') throw new Error(usage);
  const options: FakeServerOptions = { port: Number(values.port), fallback: 'echo' };
  if (values['api-key'] !== undefined) options.apiKey = values['api-key'];
  if (values.script !== undefined) {
    const parsed = JSON.parse(await readFile(values.script, 'utf8')) as
      FakeReply[] | { script?: FakeReply[]; fallback?: FakeReply | 'echo' };
    if (Array.isArray(parsed)) options.script = parsed;
    else {
      if (parsed.script !== undefined) options.script = parsed.script;
      if (parsed.fallback !== undefined) options.fallback = parsed.fallback;
    }
  }
  const server = wire === 'openai' ? await startFakeOpenAI(options) : await startFakeAnthropic(options);
  process.stdout.write(`${server.url}\n`);
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
