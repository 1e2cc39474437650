import type { HookData, HookName, HookPayload, HookResult } from '../hooks/index.ts';

/**
 * What a hook script receives on stdin: the payload with snake_case keys (spec §3.6 names:
 * `session_id`, `tool_name`, `plugin_config` …). `arguments` and `plugin_config` are passed as
 * they are; `output` becomes `{content, is_error}`.
 *
 * @example
 * toWirePayload({ hook: 'SessionStart', sessionId: 's1', pluginConfig: {} });
 * // → { hook: 'SessionStart', session_id: 's1', plugin_config: {} }
 */
export function toWirePayload(payload: HookPayload<HookName>): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload)) {
    if (key === 'output' && isRecord(value)) {
      wire['output'] = { content: value['content'], is_error: value['isError'] };
    } else {
      wire[snakeCase(key)] = value;
    }
  }
  return wire;
}

/** Why a hook script's stdout was not a usable result; the hook then continues (spec §4.6). */
export interface HookOutputProblem {
  problem: string;
}

/**
 * Reads a hook script's stdout (spec §5.6): nothing or `{}` → Continue; `{"data": {...}}` →
 * ContinueWith (snake_case or camelCase keys); `{"abort": true, "reason": "..."}` → Abort.
 * Anything else is a problem the caller logs before continuing.
 *
 * @example
 * parseHookOutput('BeforeToolUse', '{"data":{"arguments":{"path":"a.txt"}}}');
 * // → { action: 'continue_with', data: { arguments: { path: 'a.txt' } } }
 */
export function parseHookOutput<H extends HookName>(
  _hook: H,
  stdout: string,
): HookResult<H> | HookOutputProblem {
  const text = stdout.trim();
  if (text === '') return { action: 'continue' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: `stdout is not JSON: ${preview(text)}` };
  }
  if (!isRecord(value)) return { problem: `stdout is JSON but not an object: ${preview(text)}` };
  if (value['abort'] !== undefined && value['abort'] !== false && value['abort'] !== null) {
    const reason =
      typeof value['reason'] === 'string' && value['reason'].trim() !== ''
        ? value['reason']
        : 'aborted by a plugin hook';
    return { action: 'abort', reason };
  }
  if (value['data'] === undefined || value['data'] === null) return { action: 'continue' };
  if (!isRecord(value['data'])) return { problem: '`data` must be an object' };
  const data = readHookData(value['data']);
  if ('problem' in data) return data;
  return { action: 'continue_with', data: data.data as HookData<H> };
}

function readHookData(raw: Record<string, unknown>): { data: Record<string, unknown> } | HookOutputProblem {
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = camelCase(key);
    if (field === 'arguments' && !isRecord(value)) return { problem: '`data.arguments` must be an object' };
    if (field === 'userInput' && typeof value !== 'string')
      return { problem: '`data.user_input` must be text' };
    if (
      field === 'dynamicSections' &&
      !(Array.isArray(value) && value.every((item) => typeof item === 'string'))
    ) {
      return { problem: '`data.dynamic_sections` must be a list of text' };
    }
    if (field === 'output') {
      if (!isRecord(value) || typeof value['content'] !== 'string') {
        return { problem: '`data.output` must be an object with text `content`' };
      }
      const isError = value['is_error'] ?? value['isError'];
      data['output'] = { content: value['content'], isError: isError === true };
      continue;
    }
    data[field] = value;
  }
  return { data };
}

function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function camelCase(key: string): string {
  return key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function preview(text: string): string {
  const single = text.replace(/\s+/g, ' ');
  return single.length > 200 ? `${single.slice(0, 200)}…` : single;
}
