import { describe, expect, it } from 'vitest';
import { parseConfigFile } from '../../src/files/config-file.ts';
import { AgentError } from '../../src/errors/agent-error.ts';

function parseError(text: string): AgentError {
  try {
    parseConfigFile(text, '/home/config.yaml');
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error('expected CONFIG_PARSE_ERROR');
}

describe('config.yaml', () => {
  it('maps every spec key from snake_case to AgentConfig', () => {
    const { config, diagnostics } = parseConfigFile(
      `default_model: gpt-x
tool_timeout_ms: 30000
compact_threshold: 0.7
compact_model: small
compact_prompt: Summarise.
max_tool_calls_per_turn: 12
memory_model: mem
memory_checkpoint_interval: 5
memory_max_items: 0
plugin_configs:
  guard: { blocked: [rm] }
`,
      'config.yaml',
    );
    expect(diagnostics).toEqual([]);
    expect(config).toEqual({
      defaultModel: 'gpt-x',
      toolTimeoutMs: 30000,
      compactThreshold: 0.7,
      compactModel: 'small',
      compactPrompt: 'Summarise.',
      maxToolCallsPerTurn: 12,
      memoryModel: 'mem',
      memoryCheckpointInterval: 5,
      memoryMaxItems: 0,
      pluginConfigs: { guard: { blocked: ['rm'] } },
    });
  });

  it('treats an empty file, comments only and keys set to nothing as unset', () => {
    expect(parseConfigFile('', 'c').config).toEqual({});
    expect(parseConfigFile('# nothing yet\n', 'c').config).toEqual({});
    expect(parseConfigFile('compact_model:\ndefault_model: ~\n', 'c').config).toEqual({});
  });

  it('reports unknown keys as warnings with their line and keeps the rest', () => {
    const { config, diagnostics } = parseConfigFile(
      'tool_timeout_ms: 1000\ntool_timeout: 5\n',
      '/h/config.yaml',
    );
    expect(config).toEqual({ toolTimeoutMs: 1000 });
    expect(diagnostics).toEqual([
      { path: '/h/config.yaml', reason: 'unknown key `tool_timeout` ignored', severity: 'warning', line: 2 },
    ]);
  });

  it('accepts the other AgentConfig settings too', () => {
    expect(
      parseConfigFile('temperature: 0.2\nreasoning_effort: high\nbase_instructions: Be brief.\n', 'c').config,
    ).toEqual({
      temperature: 0.2,
      reasoningEffort: 'high',
      baseInstructions: 'Be brief.',
    });
  });

  it.each([
    ['invalid YAML', 'tool_timeout_ms: 1\ncompact_model: a: b\n', 2],
    ['a list document', '- a\n- b\n', 1],
    ['a scalar document', 'hello\n', 1],
    ['duplicate keys', 'memory_max_items: 1\nmemory_max_items: 2\n', 2],
    ['a threshold above 1', 'default_model: m\ncompact_threshold: 1.5\n', 2],
    ['a timeout as text', '\n\ntool_timeout_ms: "30s"\n', 3],
    ['a negative max_tool_calls_per_turn', 'max_tool_calls_per_turn: -1\n', 1],
    ['a model id that is a number', 'default_model: 42\n', 1],
    ['plugin_configs entries that are not mappings', 'plugin_configs:\n  guard: 3\n', 2],
    ['an unknown reasoning effort', 'reasoning_effort: max\n', 1],
  ])('rejects %s with CONFIG_PARSE_ERROR naming the line', (_label, text, line) => {
    const error = parseError(text);
    expect(error.code).toBe('CONFIG_PARSE_ERROR');
    expect(error.details['line']).toBe(line);
    expect(error.message).toContain(`/home/config.yaml:${String(line)}:`);
  });
});
