import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createTempWorkspace, fakeTextReply, startFakeOpenAI } from '@youyou/testing';
import type { FakeServer, TempWorkspace } from '@youyou/testing';

const CHAT = fileURLToPath(new URL('../chat.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

interface RunningChat {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  waitFor: (text: string) => Promise<void>;
  exit: Promise<number | null>;
}

let server: FakeServer | undefined;
let workspace: TempWorkspace | undefined;
let chat: RunningChat | undefined;

afterEach(async () => {
  if (chat !== undefined && chat.child.exitCode === null) chat.child.kill('SIGKILL');
  chat = undefined;
  await server?.close();
  server = undefined;
  await workspace?.remove();
  workspace = undefined;
});

/** Runs examples/chat.ts as its own process, pointed at the fake server, in a temp home and project. */
async function startChat(fake: FakeServer): Promise<RunningChat> {
  workspace = await createTempWorkspace('youyou-chat-example-');
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: 'sk-test',
    YOUYOU_MODEL: 'fake-model',
    YOUYOU_HOME: workspace.home,
    HOME: workspace.home,
  };
  delete environment['ANTHROPIC_API_KEY'];
  const child = spawn(process.execPath, ['--conditions=@youyou/source', '--import', TSX, CHAT], {
    cwd: workspace.cwd,
    env: environment,
  });
  let output = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  const onData = (chunk: Buffer): void => {
    output += chunk.toString('utf8');
    for (const waiter of waiters.filter((candidate) => output.includes(candidate.text))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    waitFor: (text) =>
      output.includes(text) ? Promise.resolve() : new Promise((resolve) => waiters.push({ text, resolve })),
    exit,
  };
}

describe('examples/chat.ts', () => {
  it('chats with an OpenAI-compatible server from piped input, streaming text and showing tool calls', async () => {
    server = await startFakeOpenAI({
      apiKey: 'sk-test',
      script: [
        fakeTextReply('Hello ', 'from the ', 'fake server.'),
        {
          type: 'stream',
          steps: [{ type: 'tool_call', id: 'call_1', name: 'current_time', arguments: {} }],
        },
        fakeTextReply('It is noon.'),
      ],
    });
    chat = await startChat(server);
    chat.child.stdin.end('hello\nwhat time is it?\n');
    expect(await chat.exit).toBe(0);
    const output = chat.output();
    expect(output).toContain('Hello from the fake server.');
    expect(output).toContain('→ current_time({})');
    expect(output).toMatch(/← current_time: \d{4}-\d{2}-\d{2}T/);
    expect(output).toContain('It is noon.');
    expect(output.indexOf('Hello from the fake server.')).toBeLessThan(output.indexOf('It is noon.'));
    server.assertDone();
    const last = server.chatRequests[2]?.body as { messages: { role: string; content: unknown }[] };
    expect(last.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
  });

  it('cancels the running reply on SIGINT and goes on to the next line', async () => {
    server = await startFakeOpenAI({
      script: [
        {
          type: 'stream',
          stepDelayMs: 100,
          steps: Array.from({ length: 300 }, (_, index) => ({
            type: 'text' as const,
            text: `word${index} `,
          })),
        },
        fakeTextReply('Second answer.'),
      ],
    });
    chat = await startChat(server);
    chat.child.stdin.write('tell me a long story\n');
    await chat.waitFor('word0');
    chat.child.kill('SIGINT');
    await chat.waitFor('[cancelled]');
    const story = server.chatRequests[0];
    expect(story).toBeDefined();
    expect(await server.waitForClose(story!.index)).toBe(true);
    chat.child.stdin.end('and now?\n');
    expect(await chat.exit).toBe(0);
    expect(chat.output()).toContain('Second answer.');
    expect(chat.output()).not.toContain('word299');
    server.assertDone();
  });
});
