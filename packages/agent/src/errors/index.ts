export { AGENT_ERROR_CODES, AgentError, isAgentError } from './agent-error.ts';
export type { AgentErrorCode, AgentErrorJSON, AgentErrorOptions, AgentErrorSource } from './agent-error.ts';
