import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors/agent-error.ts';
import { createFileTool } from '../../src/files/file-tool.ts';
import { parseFrontMatter } from '../../src/files/front-matter.ts';
import { readToolEntry } from '../../src/files/tool-entry.ts';
import type { ToolHandler, ToolOutput } from '../../src/tools/tool-handler.ts';
import { createTempWorld, eventually, isAlive, toolEntry, writeComponent } from './helpers.ts';
import type { TempWorld } from './helpers.ts';

let world: TempWorld;
beforeEach(async () => {
  world = await createTempWorld();
});
afterEach(async () => {
  await world.cleanup();
});

interface LoggedLine {
  level: string;
  fields: Readonly<Record<string, unknown>>;
  message: string;
}

async function makeTool(
  name: string,
  entry: string,
  files: Record<string, string | Buffer>,
  options: { defaultTimeoutMs?: number; log?: LoggedLine[] } = {},
): Promise<ToolHandler> {
  const directory = await writeComponent(world.home, 'tool', name, entry, files);
  const parsed = parseFrontMatter(entry);
  if (!parsed.ok) throw new Error(parsed.failure.reason);
  const result = readToolEntry(parsed.value, name);
  if (!result.ok) throw new Error(result.errors.map((error) => error.message).join('; '));
  const log = options.log ?? [];
  return createFileTool({
    definition: result.value,
    componentDirectory: directory,
    defaultTimeoutMs: options.defaultTimeoutMs,
    logger: {
      warn: (fields, message) => log.push({ level: 'warn', fields, message }),
      debug: (fields, message) => log.push({ level: 'debug', fields, message }),
    },
  });
}

function run(
  tool: ToolHandler,
  argumentsValue: Record<string, unknown> = {},
  signal = new AbortController().signal,
): Promise<ToolOutput> {
  return Promise.resolve(
    tool.execute(
      { callId: 'call-1', toolName: tool.name, arguments: argumentsValue },
      {
        signal,
        cancelSignal: new AbortController().signal,
        sessionId: 'session-1',
        turnId: 'turn-1',
        cwd: world.cwd,
        home: world.home,
      },
    ),
  );
}

async function rejection(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error('expected the tool to throw');
}

describe('file tools over the script protocol', () => {
  it('a #!/bin/sh tool gets the ToolInput on stdin, the YOUYOU_* variables and the agent cwd', async () => {
    const tool = await makeTool('echo_input', toolEntry('echo_input', { command: './run.sh' }), {
      'run.sh':
        '#!/bin/sh\ninput=$(cat)\nprintf "%s\\n%s\\n%s\\n%s\\n%s" "$input" "$YOUYOU_HOME" "$YOUYOU_COMPONENT_DIR" "$YOUYOU_SESSION_ID" "$(pwd)"\n',
    });
    const output = await run(tool, { text: 'héllo' });
    const [input, home, componentDirectory, sessionId, cwd] = output.content.split('\n');
    expect(JSON.parse(input ?? '')).toEqual({
      call_id: 'call-1',
      tool_name: 'echo_input',
      arguments: { text: 'héllo' },
    });
    expect(home).toBe(world.home);
    expect(componentDirectory).toBe(join(world.home, 'tools', 'echo_input'));
    expect(sessionId).toBe('session-1');
    expect(cwd).toBe(world.cwd);
    expect(output.isError).toBeUndefined();
  });

  it('a #!/usr/bin/env python3 tool reads its arguments; bare args naming folder files resolve', async () => {
    const tool = await makeTool(
      'add',
      toolEntry('add', { command: 'python3', args: ['add.py', '--verbose'] }),
      {
        'add.py':
          'import json, sys\nrequest = json.load(sys.stdin)\nprint(sys.argv[1], request["arguments"]["a"] + request["arguments"]["b"])\n',
      },
    );
    expect((await run(tool, { a: 2, b: 40 })).content.trim()).toBe('--verbose 42');
  });

  it('runs in working_directory, resolved from the component folder', async () => {
    const tool = await makeTool(
      'where',
      toolEntry('where', { command: './where.sh', extra: '' }).replace(
        '  command:',
        '  working_directory: data\n  command:',
      ),
      {
        'where.sh': '#!/bin/sh\npwd\n',
        'data/keep': '',
      },
    );
    expect((await run(tool)).content.trim()).toBe(join(world.home, 'tools', 'where', 'data'));
  });

  it('a tool that sleeps past its timeout is killed with its grandchild, and TOOL_TIMEOUT is thrown', async () => {
    const tool = await makeTool('sleepy', toolEntry('sleepy', { command: './sleepy.js', timeoutMs: 400 }), {
      'sleepy.js': `#!/usr/bin/env node
const { spawn } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const grandchild = spawn('sleep', ['30'], { stdio: 'ignore' });
writeFileSync(process.env.YOUYOU_COMPONENT_DIR + '/pids', process.pid + ' ' + grandchild.pid);
setTimeout(() => {}, 60000);
`.replace("require('node:child_process')", "require('node:child_process')"),
    });
    expect(tool.timeoutMs).toBe(400);
    const started = Date.now();
    const error = await rejection(run(tool));
    expect(error.code).toBe('TOOL_TIMEOUT');
    expect(error.details).toMatchObject({ tool: 'sleepy', timeoutMs: 400 });
    expect(Date.now() - started).toBeLessThan(5000);
    const pids = (await readFile(join(world.home, 'tools', 'sleepy', 'pids'), 'utf8')).split(' ').map(Number);
    expect(pids).toHaveLength(2);
    for (const pid of pids) await eventually(async () => !(await isAlive(pid)));
  });

  it('uses the config.yaml default timeout when the tool sets none', async () => {
    const tool = await makeTool(
      'slow',
      toolEntry('slow', { command: './slow.sh' }),
      { 'slow.sh': '#!/bin/sh\nsleep 30\n' },
      { defaultTimeoutMs: 200 },
    );
    expect(tool.timeoutMs).toBeUndefined();
    expect((await rejection(run(tool))).code).toBe('TOOL_TIMEOUT');
  });

  it('an aborted stop signal (the dispatcher timeout) kills the process tree and throws its reason', async () => {
    const tool = await makeTool('waits', toolEntry('waits', { command: './waits.py' }), {
      'waits.py':
        '#!/usr/bin/env python3\nimport os, subprocess, time\nchild = subprocess.Popen(["sleep", "30"])\nopen(os.environ["YOUYOU_COMPONENT_DIR"] + "/pids", "w").write(f"{os.getpid()} {child.pid}")\ntime.sleep(30)\n',
    });
    const controller = new AbortController();
    const pending = run(tool, {}, controller.signal);
    const pidsFile = join(world.home, 'tools', 'waits', 'pids');
    await eventually(async () => (await readFile(pidsFile, 'utf8').catch(() => '')).includes(' '), 10_000);
    controller.abort(new AgentError('TOOL_TIMEOUT', 'waits timed out'));
    const error = await rejection(pending);
    expect(error.code).toBe('TOOL_TIMEOUT');
    expect(error.message).toBe('waits timed out');
    for (const pid of (await readFile(pidsFile, 'utf8')).split(' ').map(Number)) {
      await eventually(async () => !(await isAlive(pid)));
    }
  });

  it('an already-aborted signal never starts the script', async () => {
    const tool = await makeTool('never', toolEntry('never', { command: './never.sh' }), {
      'never.sh': '#!/bin/sh\ntouch "$YOUYOU_COMPONENT_DIR/ran"\n',
    });
    const controller = new AbortController();
    controller.abort();
    expect((await rejection(run(tool, {}, controller.signal))).code).toBe('REQUEST_CANCELLED');
    await expect(readFile(join(world.home, 'tools', 'never', 'ran'))).rejects.toThrow();
  });

  it('a tool printing 3 MB is cut to 1 MB with a notice, at a character boundary', async () => {
    const log: LoggedLine[] = [];
    const tool = await makeTool(
      'chatty',
      toolEntry('chatty', { command: './chatty.py' }),
      {
        'chatty.py': '#!/usr/bin/env python3\nimport sys\nsys.stdout.write("é" * (3 * 1024 * 1024 // 2))\n',
      },
      { log },
    );
    const output = await run(tool);
    expect(output.isError).toBeUndefined();
    expect(Buffer.byteLength(output.content)).toBeLessThanOrEqual(1024 * 1024);
    expect(output.content).toMatch(
      /\[output truncated: the script printed 3145728 bytes; the limit is 1048576\]$/,
    );
    expect(output.content).not.toContain('\uFFFD');
    expect(log.some((line) => line.level === 'warn' && /truncated/.test(line.message))).toBe(true);
  });

  it('a tool writing invalid UTF-8 gets U+FFFD in place of the bad bytes and a logged warning', async () => {
    const log: LoggedLine[] = [];
    const tool = await makeTool(
      'binary',
      toolEntry('binary', { command: './binary.sh' }),
      {
        'binary.sh': "#!/bin/sh\nprintf 'ok \\377\\376 done'\n",
      },
      { log },
    );
    const output = await run(tool);
    expect(output.content).toBe('ok \uFFFD\uFFFD done');
    expect(log.some((line) => line.level === 'warn' && /not UTF-8/.test(line.message))).toBe(true);
  });

  it('a child that never reads stdin still works with a large input', async () => {
    const tool = await makeTool('deaf', toolEntry('deaf', { command: './deaf.sh' }), {
      'deaf.sh': '#!/bin/sh\necho done\n',
    });
    expect((await run(tool, { big: 'x'.repeat(2 * 1024 * 1024) })).content).toBe('done\n');
  });

  it('a non-zero exit is an error result carrying stdout, or stderr when stdout is empty', async () => {
    const withStdout = await makeTool('fails', toolEntry('fails', { command: './fails.sh' }), {
      'fails.sh': '#!/bin/sh\necho "no such file"\necho debug >&2\nexit 3\n',
    });
    expect(await run(withStdout)).toEqual({ content: 'no such file\n', isError: true });
    const silent = await makeTool('silent', toolEntry('silent', { command: './silent.sh' }), {
      'silent.sh': '#!/bin/sh\necho "permission denied" >&2\nexit 2\n',
    });
    expect(await run(silent)).toEqual({
      content: 'Tool silent exited with code 2. stderr:\npermission denied',
      isError: true,
    });
  });

  it('stderr goes to the log, never to the content', async () => {
    const log: LoggedLine[] = [];
    const tool = await makeTool(
      'noisy',
      toolEntry('noisy', { command: './noisy.sh' }),
      {
        'noisy.sh': '#!/bin/sh\necho diagnostics >&2\necho result\n',
      },
      { log },
    );
    expect((await run(tool)).content).toBe('result\n');
    expect(log).toContainEqual(
      expect.objectContaining({
        level: 'debug',
        fields: expect.objectContaining({ stderr: 'diagnostics\n' }),
      }),
    );
  });

  it('a missing or non-executable command throws TOOL_EXECUTION_ERROR naming the fix', async () => {
    const missing = await makeTool('missing', toolEntry('missing', { command: './nope.sh' }), {});
    const missingError = await rejection(run(missing));
    expect(missingError.code).toBe('TOOL_EXECUTION_ERROR');
    expect(missingError.message).toMatch(/was not found/);
    const plain = await makeTool('plain', toolEntry('plain', { command: './plain.sh' }), {
      'plain.sh': 'echo hi\n',
    });
    const plainError = await rejection(run(plain));
    expect(plainError.code).toBe('TOOL_EXECUTION_ERROR');
    expect(plainError.message).toMatch(/not executable/);
  });

  it('a background child that keeps printing after the script exits is ended at the timeout; the result stands', async () => {
    const tool = await makeTool('ticker', toolEntry('ticker', { command: './ticker.sh', timeoutMs: 800 }), {
      'ticker.sh': '#!/bin/sh\n(sleep 0.1; while true; do echo tick; sleep 0.05; done) &\necho started\n',
    });
    const started = Date.now();
    const output = await run(tool);
    expect(output.isError).toBeUndefined();
    expect(output.content.startsWith('started\n')).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a working_directory that does not exist throws TOOL_EXECUTION_ERROR naming it', async () => {
    const entry = toolEntry('lost', { command: './lost.sh' }).replace(
      '  command:',
      '  working_directory: nowhere\n  command:',
    );
    const tool = await makeTool('lost', entry, { 'lost.sh': '#!/bin/sh\necho hi\n' });
    const error = await rejection(run(tool));
    expect(error.code).toBe('TOOL_EXECUTION_ERROR');
    expect(error.message).toMatch(/working directory .*nowhere does not exist/);
  });

  it('returns once the script exits even if a background child keeps its stdout open', async () => {
    const tool = await makeTool(
      'daemon',
      toolEntry('daemon', { command: './daemon.sh', timeoutMs: 10_000 }),
      {
        'daemon.sh': '#!/bin/sh\nsleep 30 &\necho started\n',
      },
    );
    const started = Date.now();
    expect((await run(tool)).content).toBe('started\n');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
