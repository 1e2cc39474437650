import type { ModelSettings } from '../models/index.ts';

/**
 * Facts about well-known model names that the servers' `GET /models` does not report, from the
 * vendors' model pages. A wrong guess costs little: the server's context-length error makes the
 * agent compact and retry. Override any of it with `modelOverrides`.
 */

/** OpenAI's chat models. */
export function knownOpenAIModel(id: string): ModelSettings | undefined {
  if (/^gpt-5.*-chat/.test(id)) {
    return {
      contextWindow: 128_000,
      maxOutputTokens: 16_384,
      capabilities: { vision: true, reasoning: false },
    };
  }
  if (id.startsWith('gpt-5')) {
    return {
      contextWindow: 400_000,
      maxOutputTokens: 128_000,
      capabilities: { vision: true, reasoning: true },
    };
  }
  if (id.startsWith('gpt-4.1')) {
    return {
      contextWindow: 1_047_576,
      maxOutputTokens: 32_768,
      capabilities: { vision: true, reasoning: false },
    };
  }
  if (id.startsWith('gpt-4o') || id.startsWith('chatgpt-4o')) {
    return {
      contextWindow: 128_000,
      maxOutputTokens: 16_384,
      capabilities: { vision: true, reasoning: false },
    };
  }
  if (/^o\d/.test(id)) {
    const vision = !/^o(1|3)-mini/.test(id);
    return { contextWindow: 200_000, maxOutputTokens: 100_000, capabilities: { vision, reasoning: true } };
  }
  if (id.startsWith('gpt-4-turbo')) {
    return {
      contextWindow: 128_000,
      maxOutputTokens: 4_096,
      capabilities: { vision: true, reasoning: false },
    };
  }
  if (id.startsWith('gpt-4'))
    return { contextWindow: 8_192, maxOutputTokens: 8_192, capabilities: { reasoning: false } };
  if (id.startsWith('gpt-3.5')) {
    return { contextWindow: 16_385, maxOutputTokens: 4_096, capabilities: { reasoning: false } };
  }
  return undefined;
}

/** The OpenAI models that answer on Chat Completions (not audio, images, embeddings or Responses-only). */
export function isOpenAIChatModel(id: string): boolean {
  if (!/^(gpt-|o\d|chatgpt-)/.test(id)) return false;
  return !/(audio|realtime|tts|transcribe|image|search|instruct|embedding|moderation|codex|-pro|deep-research|computer-use)/.test(
    id,
  );
}

/** DeepSeek's hosted models (1M-token window, thinking on by default). */
export function knownDeepSeekModel(id: string): ModelSettings | undefined {
  if (!id.startsWith('deepseek')) return undefined;
  return { contextWindow: 1_048_576, maxOutputTokens: 384_000, capabilities: { reasoning: true } };
}

/** Moonshot's Kimi models. */
export function knownMoonshotModel(id: string): ModelSettings | undefined {
  const v1 = /^moonshot-v1-(8|32|128)k/.exec(id);
  if (v1 !== null) {
    return {
      contextWindow: Number(v1[1]) * 1024,
      capabilities: { vision: id.includes('vision'), reasoning: false },
    };
  }
  if (id.startsWith('moonshot-v1')) return { contextWindow: 131_072, capabilities: { reasoning: false } };
  if (id.startsWith('kimi-')) {
    const vision = /^kimi-k2\.[5-9]/.test(id) || id.includes('vision');
    return { contextWindow: 262_144, capabilities: { vision, reasoning: true } };
  }
  return undefined;
}

/** Common local model families served by Ollama, by name. */
export function knownOllamaModel(id: string): ModelSettings | undefined {
  const vision = /(llava|vision|-vl|vl:|gemma3|minicpm-v|moondream|mistral-small3\.[12]|llama4)/.test(id);
  const reasoning = /(qwen3|deepseek-r1|gpt-oss|magistral|phi4-reasoning|qwq)/.test(id);
  if (!vision && !reasoning) return undefined;
  return { capabilities: { vision, reasoning } };
}

/**
 * Every table above at once, for a provider whose vendor is not known in advance (one configured
 * by URL in the workbench): the model's name says which table applies. What the server reports
 * and what the user sets still win.
 *
 * @example
 * knownModel('gpt-4o-mini'); // { contextWindow: 128000, maxOutputTokens: 16384, capabilities: { vision: true, reasoning: false } }
 * knownModel('my-finetune'); // undefined
 */
export function knownModel(id: string): ModelSettings | undefined {
  // Gateways (OpenRouter, LiteLLM) name models `vendor/model`; the tables know the model part.
  const name = id.includes('/') ? id.slice(id.lastIndexOf('/') + 1) : id;
  return (
    knownOpenAIModel(name) ?? knownDeepSeekModel(name) ?? knownMoonshotModel(name) ?? knownOllamaModel(name)
  );
}
