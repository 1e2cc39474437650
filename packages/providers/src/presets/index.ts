export {
  isOpenAIChatModel,
  knownDeepSeekModel,
  knownModel,
  knownMoonshotModel,
  knownOllamaModel,
  knownOpenAIModel,
} from './known-models.ts';
export { deepseek, moonshot, ollama, openai, openrouter } from './presets.ts';
export type { PresetOptions } from './presets.ts';
