export { PROMPT_LAYERS, SystemPromptBuilder } from './system-prompt-builder.ts';
export type { PromptLayer, PromptSection, PromptSources, SystemPrompt } from './system-prompt-builder.ts';
