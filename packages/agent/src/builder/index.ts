export { AgentBuilder, defaultHome } from './agent-builder.ts';
export type { AgentBuilderOptions } from './agent-builder.ts';
