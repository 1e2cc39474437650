import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropic, openaiCompatible } from '@youyou/providers';
import { chatRequest, collect, textOf } from './helpers.ts';

const CLI = fileURLToPath(new URL('../../testing/src/fake-servers/cli.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');
const children: ReturnType<typeof spawn>[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
});

/** Starts the fake server CLI as its own process and returns the URL it prints. */
async function startCli(...parameters: string[]): Promise<string> {
  const child = spawn(process.execPath, [
    '--conditions=@youyou/source',
    '--import',
    TSX,
    CLI,
    ...parameters,
    '--port',
    '0',
  ]);
  children.push(child);
  let output = '';
  for await (const chunk of child.stdout) {
    output += String(chunk);
    if (output.includes('\n')) break;
  }
  return output.trim();
}

describe('the fake server command line', () => {
  it('starts an OpenAI-compatible server that echoes what it is sent', async () => {
    const url = await startCli('openai');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const provider = openaiCompatible({ id: 'cli', baseURL: url });
    expect((await provider.listModels()).map((model) => model.id)).toEqual(['fake-model']);
    expect(
      textOf(
        await collect(
          provider,
          chatRequest({ messages: [{ role: 'user', content: [{ type: 'text', text: '你好 there' }] }] }),
        ),
      ),
    ).toBe('echo: 你好 there');
  });

  it('starts an Anthropic server that checks the key it is given', async () => {
    const url = await startCli('anthropic', '--api-key', 'sk-cli');
    const refused = await collect(
      anthropic({ baseURL: url, apiKey: 'wrong', models: [{ id: 'fake-model' }] }),
    );
    expect(refused.at(-1)).toMatchObject({ type: 'error', error: { retryable: false } });
    const events = await collect(
      anthropic({ baseURL: url, apiKey: 'sk-cli', models: [{ id: 'fake-model' }] }),
    );
    expect(textOf(events)).toBe('echo: Hello');
  });
});
