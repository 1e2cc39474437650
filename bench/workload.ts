/**
 * The two workloads every framework runs, and the contract its adapter implements. The fake model
 * of each framework produces exactly the same script; only the framework around it differs.
 */

/** W1: how many text deltas one turn streams to the consumer. */
export const TEXT_DELTA_COUNT = 200_000;
/** Every W1 delta is this 4-character string. */
export const DELTA_TEXT = 'abcd';
/** W2: how many sequential tool round trips one turn makes before its answer. */
export const TOOL_STEP_COUNT = 1_000;
/** The trivial tool every framework registers for W2. */
export const TOOL_NAME = 'ping';
export const TOOL_DESCRIPTION = 'Answers pong for the step number it is given.';
/** The answer the model gives after the last tool round trip. */
export const FINAL_ANSWER = 'done';

export type WorkloadName = 'text-stream' | 'tool-loop';

/** What the consumer saw of a W1 turn; the child checks it against the script. */
export interface TextStreamResult {
  deltas: number;
  characters: number;
}

/** What the consumer saw of a W2 turn; the child checks it against the script. */
export interface ToolLoopResult {
  toolCalls: number;
  finalText: string;
}

/** A turn set up and ready: `run` is what the child times, `close` releases what setup took. */
export interface PreparedRun<Result> {
  run(): Promise<Result>;
  close(): Promise<void>;
}

/**
 * One framework driven through both workloads. `prepare*` builds the agent and its fake model (not
 * timed); the returned `run` performs one turn and consumes every event the framework streams.
 */
export interface FrameworkAdapter {
  prepareTextStream(deltaCount: number): Promise<PreparedRun<TextStreamResult>>;
  /** `onToolCall(step)` must be called from inside the tool's own execute function. */
  prepareToolLoop(
    stepCount: number,
    onToolCall: (step: number) => void,
  ): Promise<PreparedRun<ToolLoopResult>>;
}

/** The JSON arguments of the model's `step`-th tool call (1-based). */
export function toolArguments(step: number): string {
  return `{"step":${step}}`;
}

/** The id of the model's `step`-th tool call. */
export function toolCallId(step: number): string {
  return `call_${step}`;
}

/** The trivial tool body: what each framework's `ping` tool returns. */
export function pong(step: number): string {
  return `pong ${step}`;
}
