import { LineCounter, isMap, isNode, isPair, isScalar, parseDocument } from 'yaml';
import type { AgentConfig } from '../config/index.ts';
import { AgentError } from '../errors/index.ts';
import { fileDiagnostic } from './file-diagnostic.ts';
import type { FileLoadDiagnostic } from './file-diagnostic.ts';
import { MAX_TIMEOUT_MS, describeValue } from './front-matter-reader.ts';

type Kind = 'text' | 'timeout' | 'count' | 'countOrZero' | 'fraction' | 'number' | 'effort' | 'pluginConfigs';

/**
 * config.yaml keys (spec §5.7, snake_case) and the `AgentConfig` field each sets. The first ten are
 * the spec's; the rest are the other `AgentConfig` settings, so one file holds every user setting.
 *
 * @example
 * CONFIG_FILE_KEYS['tool_timeout_ms']?.field; // 'toolTimeoutMs'
 */
export const CONFIG_FILE_KEYS: Readonly<Record<string, { field: keyof AgentConfig; kind: Kind }>> =
  Object.freeze({
    default_model: { field: 'defaultModel', kind: 'text' },
    tool_timeout_ms: { field: 'toolTimeoutMs', kind: 'timeout' },
    compact_threshold: { field: 'compactThreshold', kind: 'fraction' },
    compact_model: { field: 'compactModel', kind: 'text' },
    compact_prompt: { field: 'compactPrompt', kind: 'text' },
    max_tool_calls_per_turn: { field: 'maxToolCallsPerTurn', kind: 'count' },
    memory_model: { field: 'memoryModel', kind: 'text' },
    memory_checkpoint_interval: { field: 'memoryCheckpointInterval', kind: 'count' },
    memory_max_items: { field: 'memoryMaxItems', kind: 'countOrZero' },
    plugin_configs: { field: 'pluginConfigs', kind: 'pluginConfigs' },
    base_instructions: { field: 'baseInstructions', kind: 'text' },
    provider_first_chunk_timeout_ms: { field: 'providerFirstChunkTimeoutMs', kind: 'timeout' },
    provider_chunk_timeout_ms: { field: 'providerChunkTimeoutMs', kind: 'timeout' },
    temperature: { field: 'temperature', kind: 'number' },
    max_tokens: { field: 'maxTokens', kind: 'count' },
    reasoning_effort: { field: 'reasoningEffort', kind: 'effort' },
    interrupted_note: { field: 'interruptedNote', kind: 'text' },
    failed_note: { field: 'failedNote', kind: 'text' },
  });

const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'];

/**
 * A parsed config.yaml: the settings it sets, and warnings such as unknown keys.
 *
 * @example
 * const result: ConfigFileResult = parseConfigFile('memory_max_items: 5\n', 'config.yaml');
 */
export interface ConfigFileResult {
  config: Partial<AgentConfig>;
  diagnostics: FileLoadDiagnostic[];
}

/**
 * Parses `config.yaml` (spec §5.7). A key set to nothing (`compact_model:`) counts as unset.
 * Unknown keys are warnings; invalid YAML, a non-mapping document or a value of the wrong type
 * throws CONFIG_PARSE_ERROR with `details.line` (1-based) and `details.key`.
 *
 * @example
 * const { config } = parseConfigFile('tool_timeout_ms: 30000\ncompact_threshold: 0.7\n', 'config.yaml');
 * // config → { toolTimeoutMs: 30000, compactThreshold: 0.7 }
 */
export function parseConfigFile(text: string, path: string): ConfigFileResult {
  const lineCounter = new LineCounter();
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const document = parseDocument(source, {
    lineCounter,
    prettyErrors: false,
    uniqueKeys: true,
    strict: true,
  });
  const fail = (message: string, offset: number | undefined, key?: string): never => {
    const line = offset === undefined ? 1 : lineCounter.linePos(offset).line;
    throw new AgentError('CONFIG_PARSE_ERROR', `${path}:${String(line)}: ${message}`, {
      details: key === undefined ? { path, line } : { path, line, key },
    });
  };
  const firstError = document.errors[0];
  if (firstError !== undefined) {
    fail(`invalid YAML: ${firstError.message.split('\n')[0] ?? firstError.message}`, firstError.pos[0]);
  }
  const diagnostics: FileLoadDiagnostic[] = [];
  const config: Record<string, unknown> = {};
  if (document.contents === null) return { config: {}, diagnostics };
  if (!isMap(document.contents))
    fail('the file must be a mapping of settings (key: value)', document.contents.range?.[0]);
  const root = document.contents;
  if (!isMap(root)) return { config: {}, diagnostics };
  let data: Record<string, unknown> = {};
  try {
    data = document.toJS({ maxAliasCount: 100 }) as Record<string, unknown>;
  } catch (error) {
    fail(`the file could not be read: ${error instanceof Error ? error.message : String(error)}`, undefined);
  }
  for (const pair of root.items) {
    if (!isPair(pair) || !isScalar(pair.key)) {
      fail('every key must be a plain name', undefined);
      continue;
    }
    const key = String(pair.key.value);
    const keyOffset = pair.key.range?.[0];
    const known = CONFIG_FILE_KEYS[key];
    if (known === undefined) {
      const line = keyOffset === undefined ? undefined : lineCounter.linePos(keyOffset).line;
      diagnostics.push(
        fileDiagnostic({ path, reason: `unknown key \`${key}\` ignored`, severity: 'warning', line }),
      );
      continue;
    }
    const value = data[key];
    if (value === null || value === undefined) continue;
    const problem = checkValue(known.kind, value);
    const valueOffset = isNode(pair.value) ? pair.value.range?.[0] : keyOffset;
    if (problem !== undefined)
      fail(`\`${key}\` ${problem}, found ${describeValue(value)}`, valueOffset ?? keyOffset, key);
    config[known.field] = value;
  }
  return { config: config as Partial<AgentConfig>, diagnostics };
}

function checkValue(kind: Kind, value: unknown): string | undefined {
  switch (kind) {
    case 'text':
      return typeof value === 'string' ? undefined : 'must be text';
    case 'timeout':
      return isInteger(value) && value >= 1 && value <= MAX_TIMEOUT_MS
        ? undefined
        : `must be a whole number of milliseconds between 1 and ${String(MAX_TIMEOUT_MS)}`;
    case 'count':
      return isInteger(value) && value >= 1 ? undefined : 'must be a whole number of at least 1';
    case 'countOrZero':
      return isInteger(value) && value >= 0 ? undefined : 'must be a whole number of at least 0';
    case 'fraction':
      return typeof value === 'number' && value > 0 && value <= 1
        ? undefined
        : 'must be a number above 0 and at most 1';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
    case 'effort':
      return typeof value === 'string' && REASONING_EFFORTS.includes(value)
        ? undefined
        : `must be one of ${REASONING_EFFORTS.join(', ')}`;
    case 'pluginConfigs':
      if (!isRecord(value)) return 'must be a mapping from plugin id to its configuration';
      for (const [id, config] of Object.entries(value)) {
        if (!isRecord(config)) return `entry \`${id}\` must be a mapping (the plugin's configuration)`;
      }
      return undefined;
  }
}

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
