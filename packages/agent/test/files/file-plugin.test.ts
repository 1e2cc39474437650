import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFilePlugin } from '../../src/files/file-plugin.ts';
import { parseFrontMatter } from '../../src/files/front-matter.ts';
import { readPluginEntry } from '../../src/files/plugin-entry.ts';
import type { HookName, HookPayload, HookResult } from '../../src/hooks/hook-types.ts';
import type { HookTap } from '../../src/plugins/plugin.ts';
import { createTempWorld, eventually, isAlive, pluginEntry, writeComponent } from './helpers.ts';
import type { TempWorld } from './helpers.ts';

let world: TempWorld;
beforeEach(async () => {
  world = await createTempWorld();
});
afterEach(async () => {
  await world.cleanup();
});

type AnyHandler = (payload: HookPayload<HookName>) => unknown;

interface Warning {
  fields: Readonly<Record<string, unknown>>;
  message: string;
}

async function loadPlugin(
  id: string,
  entry: string,
  files: Record<string, string>,
  defaultTimeoutMs?: number,
) {
  const directory = await writeComponent(world.home, 'plugin', id, entry, files);
  const parsed = parseFrontMatter(entry);
  if (!parsed.ok) throw new Error(parsed.failure.reason);
  const result = readPluginEntry(parsed.value, id);
  if (!result.ok) throw new Error(result.errors.map((error) => error.message).join('; '));
  const warnings: Warning[] = [];
  const plugin = createFilePlugin({
    definition: result.value,
    componentDirectory: directory,
    cwd: world.cwd,
    home: world.home,
    defaultTimeoutMs,
    logger: { warn: (fields, message) => warnings.push({ fields, message }), debug: () => undefined },
  });
  const taps = new Map<HookName, AnyHandler>();
  const hooks: HookTap = {
    tap: (hook, handler) => {
      taps.set(hook, handler as AnyHandler);
    },
  };
  plugin.apply(hooks);
  const fire = async <H extends HookName>(hook: H, payload: HookPayload<H>): Promise<HookResult<H>> => {
    const handler = taps.get(hook);
    if (handler === undefined) throw new Error(`${hook} not tapped`);
    return (await handler(payload as HookPayload<HookName>)) as HookResult<H>;
  };
  return { plugin, taps, fire, warnings, directory };
}

const beforeToolUse = (argumentsValue: Record<string, unknown>): HookPayload<'BeforeToolUse'> => ({
  hook: 'BeforeToolUse',
  sessionId: 'session-1',
  turnId: 'turn-1',
  callId: 'call-1',
  toolName: 'write_file',
  arguments: argumentsValue,
  pluginConfig: { blocked: ['rm'] },
});

describe('file plugins over the script protocol', () => {
  it('taps exactly the declared hooks and has no initialize or shutdown', async () => {
    const { plugin, taps } = await loadPlugin(
      'p',
      pluginEntry('p', { TurnStart: './a.sh', AfterToolUse: './a.sh' }),
      { 'a.sh': '#!/bin/sh\n' },
    );
    expect([...taps.keys()].sort()).toEqual(['AfterToolUse', 'TurnStart']);
    expect(plugin.initialize).toBeUndefined();
    expect(plugin.shutdown).toBeUndefined();
    expect(plugin).toMatchObject({ id: 'p', displayName: 'p plugin', description: 'The p plugin.' });
  });

  it('sends the snake_case payload with plugin_config on stdin; empty output continues', async () => {
    const { fire, directory } = await loadPlugin(
      'record',
      pluginEntry('record', { BeforeToolUse: './record.sh' }),
      {
        'record.sh':
          '#!/bin/sh\ncat > "$YOUYOU_COMPONENT_DIR/payload.json"\necho "$YOUYOU_SESSION_ID" > "$YOUYOU_COMPONENT_DIR/session"\n',
      },
    );
    expect(await fire('BeforeToolUse', beforeToolUse({ path: 'a.txt' }))).toEqual({ action: 'continue' });
    expect(JSON.parse(await readFile(join(directory, 'payload.json'), 'utf8'))).toEqual({
      hook: 'BeforeToolUse',
      session_id: 'session-1',
      turn_id: 'turn-1',
      call_id: 'call-1',
      tool_name: 'write_file',
      arguments: { path: 'a.txt' },
      plugin_config: { blocked: ['rm'] },
    });
    expect((await readFile(join(directory, 'session'), 'utf8')).trim()).toBe('session-1');
  });

  it('`{}` continues', async () => {
    const { fire } = await loadPlugin('empty', pluginEntry('empty', { SessionStart: './empty.sh' }), {
      'empty.sh': '#!/bin/sh\necho "{}"\n',
    });
    expect(await fire('SessionStart', { hook: 'SessionStart', sessionId: 's', pluginConfig: {} })).toEqual({
      action: 'continue',
    });
  });

  it('a hook that rewrites tool arguments returns ContinueWith', async () => {
    const { fire } = await loadPlugin('rewrite', pluginEntry('rewrite', { BeforeToolUse: './rewrite.py' }), {
      'rewrite.py':
        '#!/usr/bin/env python3\nimport json, sys\np = json.load(sys.stdin)\nargs = dict(p["arguments"])\nargs["path"] = "sandbox/" + args["path"]\nprint(json.dumps({"data": {"arguments": args}}))\n',
    });
    expect(await fire('BeforeToolUse', beforeToolUse({ path: 'a.txt', mode: 'w' }))).toEqual({
      action: 'continue_with',
      data: { arguments: { path: 'sandbox/a.txt', mode: 'w' } },
    });
  });

  it('a hook that aborts returns Abort with its reason', async () => {
    const { fire } = await loadPlugin('guard', pluginEntry('guard', { BeforeToolUse: './guard.js' }), {
      'guard.js': `#!/usr/bin/env node
let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  const payload = JSON.parse(input);
  if (payload.plugin_config.blocked.includes(payload.arguments.command)) {
    process.stdout.write(JSON.stringify({ abort: true, reason: 'rm is blocked by policy' }));
  }
});
`,
    });
    expect(await fire('BeforeToolUse', beforeToolUse({ command: 'rm' }))).toEqual({
      action: 'abort',
      reason: 'rm is blocked by policy',
    });
    expect(await fire('BeforeToolUse', beforeToolUse({ command: 'ls' }))).toEqual({ action: 'continue' });
  });

  it('maps snake_case data back: AfterToolUse output and TurnStart sections', async () => {
    const { fire } = await loadPlugin(
      'shape',
      pluginEntry('shape', { AfterToolUse: './after.sh', TurnStart: './start.sh' }),
      {
        'after.sh': '#!/bin/sh\necho \'{"data":{"output":{"content":"redacted","is_error":true}}}\'\n',
        'start.sh': '#!/bin/sh\necho \'{"data":{"dynamic_sections":["Today is Tuesday."]}}\'\n',
      },
    );
    const after = await fire('AfterToolUse', {
      hook: 'AfterToolUse',
      sessionId: 's',
      turnId: 't',
      callId: 'c',
      toolName: 'x',
      output: { content: 'secret', isError: false },
      durationMs: 3,
      success: true,
      pluginConfig: {},
    });
    expect(after).toEqual({
      action: 'continue_with',
      data: { output: { content: 'redacted', isError: true } },
    });
    const start = await fire('TurnStart', {
      hook: 'TurnStart',
      sessionId: 's',
      turnId: 't',
      userInput: 'hi',
      dynamicSections: [],
      pluginConfig: {},
    });
    expect(start).toEqual({ action: 'continue_with', data: { dynamicSections: ['Today is Tuesday.'] } });
  });

  it.each([
    ['prints garbage', '#!/bin/sh\necho "<html>not json"\necho "trace" >&2\n', /not JSON/],
    ['prints a JSON list', '#!/bin/sh\necho "[1,2]"\n', /not an object/],
    [
      'returns arguments that are not an object',
      '#!/bin/sh\necho \'{"data":{"arguments":"x"}}\'\n',
      /data.arguments/,
    ],
    ['exits non-zero', '#!/bin/sh\necho "boom" >&2\nexit 7\n', /exited with code 7/],
    ['is missing', undefined, /was not found/],
  ])('a hook that %s continues with a warning carrying stderr', async (_label, script, problem) => {
    const files: Record<string, string> = script === undefined ? {} : { 'hook.sh': script };
    const { fire, warnings } = await loadPlugin(
      'bad',
      pluginEntry('bad', { BeforeToolUse: './hook.sh' }),
      files,
    );
    expect(await fire('BeforeToolUse', beforeToolUse({}))).toEqual({ action: 'continue' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.fields['problem']).toMatch(problem);
    expect(warnings[0]?.fields).toMatchObject({ plugin: 'bad', hook: 'BeforeToolUse' });
    if (script?.includes('>&2') === true) expect(warnings[0]?.fields['stderr']).toMatch(/trace|boom/);
  });

  it('a hook that outlives its timeout is killed (grandchild too) and the hook continues', async () => {
    const entry = pluginEntry('slow', { SessionEnd: './slow.sh' }).replace(
      'command: "./slow.sh"',
      'command: "./slow.sh"\n    timeout_ms: 300',
    );
    const { fire, warnings, directory } = await loadPlugin('slow', entry, {
      'slow.sh': '#!/bin/sh\ntrap "" TERM\nsleep 30 &\necho "$$ $!" > "$YOUYOU_COMPONENT_DIR/pids"\nwait\n',
    });
    expect(
      await fire('SessionEnd', { hook: 'SessionEnd', sessionId: 's', messageCount: 2, pluginConfig: {} }),
    ).toEqual({ action: 'continue' });
    expect(warnings[0]?.fields['problem']).toMatch(/timed out after 300 ms/);
    for (const pid of (await readFile(join(directory, 'pids'), 'utf8')).trim().split(' ').map(Number)) {
      await eventually(async () => !(await isAlive(pid)));
    }
  });
});
