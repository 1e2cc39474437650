export {
  AgentEventRecorder,
  eventErrorOf,
  failureOf,
  rollUpUsage,
  storeRunEnd,
  usageOf,
} from './agent-event-recorder.ts';
export type { Outcome } from './agent-event-recorder.ts';
export { titleFromText, TITLE_LENGTH } from '../models/index.ts';
export type { RunContext, RunToolRegistry } from './run-context.ts';
export { RunExecution, uploadFilesOf } from './run-execution.ts';
export { runLifecycle } from './run-lifecycle.ts';
export type { RunLifecycleOptions, RunLifecycleSteps } from './run-lifecycle.ts';
export type { RunExecutionOptions } from './run-execution.ts';
export { RunManager } from './run-manager.ts';
export type { ActiveExecution, SendOptions, SendRequest, SendResult } from './run-manager.ts';
export { interruptRun, repairRecords } from './run-recovery.ts';
export { endLeftoverProcesses, markProcessOwnership, OWNER_VARIABLE } from './leftover-processes.ts';
export { planRun, profileModel, sessionConfigOf, toolPolicyOf } from './run-plan.ts';
export type { ParameterSource, RunPlan, RunPlanServices } from './run-plan.ts';
