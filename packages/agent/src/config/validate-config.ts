import { AgentError } from '../errors/index.ts';
import type { AgentConfig } from './agent-config.ts';

const REASONING_EFFORTS: readonly string[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

const POSITIVE_INTEGERS = [
  'toolTimeoutMs',
  'maxToolCallsPerTurn',
  'memoryCheckpointInterval',
  'providerFirstChunkTimeoutMs',
  'providerChunkTimeoutMs',
] as const satisfies readonly (keyof AgentConfig)[];

/** Checks every value's type and range; a bad one is CONFIG_PARSE_ERROR naming the field. */
export function validateConfig(config: AgentConfig): AgentConfig {
  const fail = (field: string, expected: string): never => {
    throw new AgentError(
      'CONFIG_PARSE_ERROR',
      `Config field '${field}' must be ${expected}; got ${JSON.stringify(config[field as keyof AgentConfig])}.`,
      {
        details: { field },
      },
    );
  };
  for (const field of POSITIVE_INTEGERS) {
    const value = config[field];
    if (!Number.isInteger(value) || value <= 0) fail(field, 'a positive integer');
  }
  if (!Number.isInteger(config.memoryMaxItems) || config.memoryMaxItems < 0)
    fail('memoryMaxItems', 'a non-negative integer');
  if (
    typeof config.compactThreshold !== 'number' ||
    !(config.compactThreshold > 0 && config.compactThreshold <= 1)
  ) {
    fail('compactThreshold', 'a number in (0, 1]');
  }
  if (typeof config.baseInstructions !== 'string') fail('baseInstructions', 'a string');
  for (const field of ['interruptedNote', 'failedNote'] as const) {
    if (typeof config[field] !== 'string' || config[field].trim() === '') fail(field, 'a non-empty string');
  }
  for (const field of ['defaultModel', 'compactModel', 'compactPrompt', 'memoryModel'] as const) {
    if (config[field] !== undefined && typeof config[field] !== 'string') fail(field, 'a string');
  }
  if (
    config.temperature !== undefined &&
    (typeof config.temperature !== 'number' || config.temperature < 0 || config.temperature > 2)
  ) {
    fail('temperature', 'a number in [0, 2]');
  }
  if (config.maxTokens !== undefined && (!Number.isInteger(config.maxTokens) || config.maxTokens <= 0))
    fail('maxTokens', 'a positive integer');
  if (config.reasoningEffort !== undefined && !REASONING_EFFORTS.includes(config.reasoningEffort)) {
    fail('reasoningEffort', `one of ${REASONING_EFFORTS.join(', ')}`);
  }
  if (
    typeof config.pluginConfigs !== 'object' ||
    config.pluginConfigs === null ||
    Array.isArray(config.pluginConfigs)
  ) {
    fail('pluginConfigs', 'a map of plugin id to configuration');
  }
  return config;
}
