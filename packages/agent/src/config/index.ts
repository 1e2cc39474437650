export { DEFAULT_AGENT_CONFIG } from './agent-config.ts';
export type { AgentConfig } from './agent-config.ts';
export { validateConfig } from './validate-config.ts';
