export { DEFAULT_AGENT_CONFIG, FAILED_NOTE, INTERRUPTED_NOTE } from './agent-config.ts';
export type { AgentConfig } from './agent-config.ts';
export { validateConfig } from './validate-config.ts';
