export { ModelRouting, type CompletionRequest, type ResolvedModel } from './model-routing.ts';
export { generateTitle, TITLE_SYSTEM_PROMPT } from './conversation-title.ts';
export { titleFromText, TITLE_LENGTH } from './auto-title.ts';
