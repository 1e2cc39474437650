export { createRunBinding, RunBindings } from './run-bindings.ts';
export type { RunBinding, ToolDecision } from './run-bindings.ts';
