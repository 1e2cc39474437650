export { DEFAULT_SUBAGENT_OPTIONS } from './subagent-options.ts';
export type { SubagentOptions } from './subagent-options.ts';
