export { SubagentExecution } from './subagent-execution.ts';
export type { SubagentEnd, SubagentExecutionOptions } from './subagent-execution.ts';
export { SubagentManager } from './subagent-manager.ts';
export type { ProfileResolver, SubagentManagerOptions, SubagentProfile } from './subagent-manager.ts';
export { DEFAULT_SUBAGENT_OPTIONS } from './subagent-options.ts';
export type { SubagentOptions } from './subagent-options.ts';
