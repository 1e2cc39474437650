import type { SubagentBudget } from '@youyou/contracts';

/** How sub-agents run on this server. */
export interface SubagentOptions {
  /** How many sub-agents of one parent run at once; more wait their turn. */
  maxConcurrent: number;
  /** The budget of a sub-agent whose spawn does not set one (each field a ceiling too). */
  budget: SubagentBudget;
  /** At most this often an `agent.progress` event per sub-agent. */
  progressIntervalMs: number;
}

/**
 * Four at once, 50 tool calls, 200,000 tokens, ten minutes; progress at most every 250 ms.
 *
 * @example
 * startServer({ subagents: { maxConcurrent: 8 } });
 */
export const DEFAULT_SUBAGENT_OPTIONS: SubagentOptions = {
  maxConcurrent: 4,
  budget: { max_tool_calls: 50, max_tokens: 200_000, max_duration_ms: 600_000 },
  progressIntervalMs: 250,
};
