import type { Usage } from '@youyou/agent';
import { toolDecision, type BudgetErrorCode } from '@youyou/contracts';
import type { RunShaping } from '../agents/index.ts';
import type { EventError } from '../events/index.ts';
import type { RunPlan } from './run-plan.ts';

/**
 * A run's limits (spec §4.7): tokens of all its model calls, wall time, tool calls. The first one
 * passed stops the run, which then ends `failed` with a stable code — BUDGET_TOKENS_EXCEEDED,
 * BUDGET_TIME_EXCEEDED or BUDGET_TOOL_CALLS_EXCEEDED — and what it had produced until then. It also
 * shapes the run's calls: tools the profile denies are hidden from the model and refused if named.
 *
 * @example
 * const guard = new RunBudgetGuard(plan, () => controller.abort());
 * guard.start(); … guard.stop(); if (guard.exceeded) fail(guard.exceeded);
 */
export class RunBudgetGuard {
  readonly #plan: RunPlan;
  readonly #stop: () => void;
  #tokens = 0;
  #toolCalls = 0;
  #timer: NodeJS.Timeout | undefined;
  #exceeded: EventError | undefined;

  constructor(plan: RunPlan, stop: () => void) {
    this.#plan = plan;
    this.#stop = stop;
  }

  /** The error the run ends with when a limit was passed. */
  get exceeded(): EventError | undefined {
    return this.#exceeded;
  }

  start(): void {
    const limit = this.#plan.budget.max_duration_ms;
    if (limit === null || limit === undefined) return;
    this.#timer = setTimeout(
      () =>
        this.#pass(
          'BUDGET_TIME_EXCEEDED',
          `The run reached its time budget of ${limit} ms and was stopped.`,
          {
            limit,
          },
        ),
      limit,
    );
    this.#timer.unref();
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  readonly shaping: RunShaping = {
    toolVisible: (toolName) => toolDecision(this.#plan.tools, toolName) !== 'deny',
    beforeTool: (toolName) => {
      if (toolDecision(this.#plan.tools, toolName) === 'deny') {
        return `the profile '${this.#plan.profile.name}' does not allow the tool '${toolName}'`;
      }
      const limit = this.#plan.budget.max_tool_calls;
      this.#toolCalls++;
      if (limit !== null && limit !== undefined && this.#toolCalls > limit) {
        this.#pass(
          'BUDGET_TOOL_CALLS_EXCEEDED',
          `The run reached its budget of ${limit} tool call${limit === 1 ? '' : 's'} and was stopped.`,
          { limit, used: this.#toolCalls },
        );
        return `the run's budget of ${limit} tool calls is used up`;
      }
      return undefined;
    },
    onUsage: (usage: Usage) => {
      this.#tokens += usage.inputTokens + usage.outputTokens;
      const limit = this.#plan.budget.max_tokens;
      if (limit !== null && limit !== undefined && this.#tokens > limit) {
        this.#pass(
          'BUDGET_TOKENS_EXCEEDED',
          `The run used ${this.#tokens} tokens, past its budget of ${limit}, and was stopped.`,
          { limit, used: this.#tokens },
        );
      }
    },
  };

  #pass(code: BudgetErrorCode, message: string, details: Record<string, unknown>): void {
    if (this.#exceeded !== undefined) return;
    this.#exceeded = { code, message, retryable: false, source: 'server', details };
    this.stop();
    this.#stop();
  }
}
