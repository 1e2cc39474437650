import type { ModelProvider } from '@youyou/agent';
import { openaiCompatible } from '../openai-compatible/index.ts';
import type { OpenAICompatibleOptions } from '../openai-compatible/index.ts';
import {
  isOpenAIChatModel,
  knownDeepSeekModel,
  knownMoonshotModel,
  knownOllamaModel,
  knownOpenAIModel,
} from './known-models.ts';

/** A preset's settings: anything `openaiCompatible` takes, all optional. */
export type PresetOptions = Partial<OpenAICompatibleOptions>;

/**
 * A local Ollama server (default `http://127.0.0.1:11434/v1`, no key). Models are discovered,
 * with their context window and capabilities from Ollama's `/api/show` (the model's `num_ctx`
 * when its parameters set one, else the length it was trained for; 8,192 when Ollama says
 * nothing). Ollama cuts prompts longer than the length it runs with silently, so when you start it
 * with `OLLAMA_CONTEXT_LENGTH`, tell the provider the same number (`modelOverrides`).
 *
 * @example
 * const provider = ollama({ modelIdPrefix: 'ollama/', modelDefaults: { contextWindow: 32_768 } });
 */
export function ollama(options: PresetOptions = {}): ModelProvider {
  return openaiCompatible({
    id: 'ollama',
    baseURL: 'http://127.0.0.1:11434/v1',
    modelDefaults: { contextWindow: 8_192 },
    knownModel: knownOllamaModel,
    serverDetails: true,
    ...options,
  });
}

/**
 * OpenAI (key from `OPENAI_API_KEY`). Chat models are discovered; sizes come from a table of
 * known models.
 *
 * @example
 * const provider = openai({ models: [{ id: 'gpt-4.1-mini' }] });
 */
export function openai(options: PresetOptions = {}): ModelProvider {
  return openaiCompatible({
    id: 'openai',
    baseURL: 'https://api.openai.com/v1',
    apiKey: process.env['OPENAI_API_KEY'] ?? '',
    apiKeyHint: '(set OPENAI_API_KEY)',
    maxTokensField: 'max_completion_tokens',
    includeModel: isOpenAIChatModel,
    knownModel: knownOpenAIModel,
    modelDefaults: { contextWindow: 128_000, capabilities: { vision: true } },
    ...options,
  });
}

/**
 * DeepSeek (key from `DEEPSEEK_API_KEY`). Reasoning is sent back on tool-call turns, which
 * DeepSeek's thinking mode requires.
 *
 * @example
 * const provider = deepseek({ models: [{ id: 'deepseek-v4-pro' }] });
 */
export function deepseek(options: PresetOptions = {}): ModelProvider {
  return openaiCompatible({
    id: 'deepseek',
    baseURL: 'https://api.deepseek.com',
    apiKey: process.env['DEEPSEEK_API_KEY'] ?? '',
    apiKeyHint: '(set DEEPSEEK_API_KEY)',
    reasoningHistory: 'tool-calls',
    knownModel: knownDeepSeekModel,
    modelDefaults: { contextWindow: 131_072 },
    ...options,
  });
}

/**
 * Moonshot's Kimi (key from `MOONSHOT_API_KEY`; `baseURL: 'https://api.moonshot.cn/v1'` for
 * the China endpoint). Reasoning is sent back on tool-call turns, as Kimi's thinking models require.
 *
 * @example
 * const provider = moonshot({ models: [{ id: 'kimi-k2.6', alias: 'kimi' }] });
 */
export function moonshot(options: PresetOptions = {}): ModelProvider {
  return openaiCompatible({
    id: 'moonshot',
    baseURL: 'https://api.moonshot.ai/v1',
    apiKey: process.env['MOONSHOT_API_KEY'] ?? '',
    apiKeyHint: '(set MOONSHOT_API_KEY)',
    reasoningHistory: 'tool-calls',
    knownModel: knownMoonshotModel,
    modelDefaults: { contextWindow: 131_072 },
    ...options,
  });
}

/**
 * OpenRouter (key from `OPENROUTER_API_KEY`). Its `GET /models` reports windows, output limits,
 * vision and tool support, so discovery gives complete model info; `reasoningEffort` is sent as
 * OpenRouter's `reasoning.effort`. Name your app with `headers: { 'X-Title': …, 'HTTP-Referer': … }`.
 *
 * @example
 * const provider = openrouter({ models: [{ id: 'anthropic/claude-sonnet-4.5', alias: 'sonnet' }] });
 */
export function openrouter(options: PresetOptions = {}): ModelProvider {
  return openaiCompatible({
    id: 'openrouter',
    baseURL: 'https://openrouter.ai/api/v1',
    apiKey: process.env['OPENROUTER_API_KEY'] ?? '',
    apiKeyHint: '(set OPENROUTER_API_KEY)',
    transformBody: (body) => {
      const { reasoning_effort: effort, ...rest } = body;
      return effort === undefined ? rest : { ...rest, reasoning: { effort } };
    },
    ...options,
  });
}
