import type { ProviderKind } from '@youyou/contracts';

/** Ready-made provider settings: pick one, paste a key. */
export interface ProviderPreset {
  /** The provider's name as the server keeps it (lowercase; it prefixes model ids: `deepseek/deepseek-chat`). */
  id: string;
  /** How the preset list shows it. */
  name: string;
  kind: ProviderKind;
  baseUrl: string;
  needsKey: boolean;
  /** Suggested models; empty: ask the provider's model list. */
  models: string[];
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    id: 'openai',
    name: 'OpenAI',
    kind: 'openai-compatible',
    baseUrl: 'https://api.openai.com/v1',
    needsKey: true,
    models: [],
  },
  {
    id: 'anthropic',
    name: 'Anthropic',
    kind: 'anthropic',
    baseUrl: 'https://api.anthropic.com',
    needsKey: true,
    models: [],
  },
  {
    id: 'ollama',
    name: 'Ollama',
    kind: 'openai-compatible',
    baseUrl: 'http://127.0.0.1:11434/v1',
    needsKey: false,
    models: [],
  },
  {
    id: 'deepseek',
    name: 'DeepSeek',
    kind: 'openai-compatible',
    baseUrl: 'https://api.deepseek.com/v1',
    needsKey: true,
    models: ['deepseek-chat', 'deepseek-reasoner'],
  },
  {
    id: 'moonshot',
    name: 'Moonshot',
    kind: 'openai-compatible',
    baseUrl: 'https://api.moonshot.cn/v1',
    needsKey: true,
    models: [],
  },
  {
    id: 'openrouter',
    name: 'OpenRouter',
    kind: 'openai-compatible',
    baseUrl: 'https://openrouter.ai/api/v1',
    needsKey: true,
    models: [],
  },
  { id: 'custom', name: '', kind: 'openai-compatible', baseUrl: '', needsKey: false, models: [] },
];

/** What the server accepts as a provider name (it becomes the prefix of model ids). */
export const PROVIDER_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/** "a, b ,c" → ["a", "b", "c"]. */
export function parseModelList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    ),
  ];
}
