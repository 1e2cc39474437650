import { z } from 'zod';

/** Run states and phases as sub-agent shapes carry them (spec §4.2). */
export const SubagentStatusSchema = z.enum([
  'pending',
  'running',
  'waiting_hitl',
  'completed',
  'failed',
  'cancelled',
  'interrupted',
]);
export type SubagentStatus = z.infer<typeof SubagentStatusSchema>;
export const SubagentPhaseSchema = z.enum(['pending', 'thinking', 'acting', 'responding', 'done']);
export type SubagentPhase = z.infer<typeof SubagentPhaseSchema>;

/**
 * What one sub-agent may spend; the first limit reached ends it with a stable code
 * (`SUBAGENT_TOOL_CALLS_EXCEEDED`, `SUBAGENT_TOKENS_EXCEEDED`, `SUBAGENT_TIME_EXCEEDED`).
 *
 * @example
 * SubagentBudgetSchema.parse({ max_tool_calls: 20, max_tokens: 50_000, max_duration_ms: 120_000 });
 */
export const SubagentBudgetSchema = z.object({
  max_tool_calls: z.number().int().positive(),
  max_tokens: z.number().int().positive(),
  max_duration_ms: z.number().int().positive(),
});
export type SubagentBudget = z.infer<typeof SubagentBudgetSchema>;

/** The arguments of the `spawn_agent` tool. */
export const SpawnAgentInputSchema = z.object({
  task: z.string().min(1),
  instructions: z.string().optional(),
  /** Tool names, never more than the parent has; default: the parent's tools. */
  tools: z.array(z.string()).optional(),
  profile_id: z.string().optional(),
  expected_output: z.string().optional(),
  budget: SubagentBudgetSchema.partial().optional(),
});
export type SpawnAgentInput = z.infer<typeof SpawnAgentInputSchema>;

/** Tokens so far. */
export const SubagentTokensSchema = z.object({ input: z.number().int(), output: z.number().int() });

/** `agent.spawn` (run_id: the child): a sub-agent was started. */
export const AgentSpawnPayloadSchema = z.object({
  parent_run_id: z.string(),
  /** The top-level run of the tree (the assistant message that owns it). */
  root_run_id: z.string(),
  call_id: z.string(),
  task: z.string(),
  instructions: z.string().nullable(),
  expected_output: z.string().nullable(),
  tools: z.array(z.string()),
  profile_id: z.string().nullable(),
  depth: z.number().int(),
  budget: SubagentBudgetSchema,
});
export type AgentSpawnPayload = z.infer<typeof AgentSpawnPayloadSchema>;

/** `agent.progress` (run_id: the child), at a bounded rate. */
export const AgentProgressPayloadSchema = z.object({
  parent_run_id: z.string(),
  phase: SubagentPhaseSchema,
  current_tool: z.string().nullable(),
  /** The end of the text it is writing (a few hundred characters). */
  last_text: z.string(),
  tokens: SubagentTokensSchema,
  tool_calls: z.number().int(),
});
export type AgentProgressPayload = z.infer<typeof AgentProgressPayloadSchema>;

/** An error as sub-agent shapes carry it. */
export const SubagentErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
  details: z.record(z.string(), z.unknown()).optional(),
});

/** Usage of one run (spec §4.17). */
export const SubagentUsageSchema = z.object({
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  tool_calls: z.number().int(),
  model_calls: z.number().int(),
  duration_ms: z.number().int(),
});

/** `agent.result` (run_id: the child): how it ended. */
export const AgentResultPayloadSchema = z.object({
  parent_run_id: z.string(),
  status: SubagentStatusSchema,
  /** Its final answer (possibly cut short). */
  summary: z.string(),
  error: SubagentErrorSchema.nullable(),
  /** Ids of the artifacts it wrote. */
  artifacts: z.array(z.string()),
  usage: SubagentUsageSchema,
});
export type AgentResultPayload = z.infer<typeof AgentResultPayloadSchema>;

/**
 * The sub-agent event types and their payloads, spread into the event registry
 * (`events/registry.ts`). `run_id` is the sub-agent's own run.
 *
 * @example
 * Object.keys(AGENT_EVENT_PAYLOAD_SCHEMAS); // ['agent.spawn', 'agent.progress', 'agent.result']
 */
export const AGENT_EVENT_PAYLOAD_SCHEMAS = {
  'agent.spawn': AgentSpawnPayloadSchema,
  'agent.progress': AgentProgressPayloadSchema,
  'agent.result': AgentResultPayloadSchema,
} as const;

/** An artifact a sub-agent produced, as the tracker links it. */
export const AgentArtifactLinkSchema = z.object({ id: z.string(), title: z.string(), kind: z.string() });

/**
 * One node of the tracker's task tree (spec §4.4 AgentTracker): a sub-agent run and its children.
 *
 * @example
 * const tree: AgentTree = await (await fetch(`/api/conversations/${id}/agents`)).json();
 */
export interface AgentNode {
  run_id: string;
  parent_run_id: string;
  root_run_id: string;
  conversation_id: string;
  call_id: string;
  task: string;
  instructions: string | null;
  expected_output: string | null;
  tools: string[];
  profile_id: string | null;
  depth: number;
  status: SubagentStatus;
  phase: SubagentPhase;
  current_tool: string | null;
  last_text: string;
  tokens: { input: number; output: number };
  tool_calls: number;
  budget: SubagentBudget;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  duration_ms: number | null;
  result: string | null;
  error: z.infer<typeof SubagentErrorSchema> | null;
  artifacts: z.infer<typeof AgentArtifactLinkSchema>[];
  children: AgentNode[];
}
const AgentNodeFieldsSchema = z.object({
  run_id: z.string(),
  parent_run_id: z.string(),
  root_run_id: z.string(),
  conversation_id: z.string(),
  call_id: z.string(),
  task: z.string(),
  instructions: z.string().nullable(),
  expected_output: z.string().nullable(),
  tools: z.array(z.string()),
  profile_id: z.string().nullable(),
  depth: z.number().int(),
  status: SubagentStatusSchema,
  phase: SubagentPhaseSchema,
  current_tool: z.string().nullable(),
  last_text: z.string(),
  tokens: SubagentTokensSchema,
  tool_calls: z.number().int(),
  budget: SubagentBudgetSchema,
  created_at: z.string(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  result: z.string().nullable(),
  error: SubagentErrorSchema.nullable(),
  artifacts: z.array(AgentArtifactLinkSchema),
});

/**
 * A node of the tree. Spelled out to the deepest level (MAX_SUBAGENT_DEPTH = 2) rather than
 * recursive, so OpenAPI generators can describe it.
 */
export const AgentNodeSchema = AgentNodeFieldsSchema.extend({
  children: z.array(AgentNodeFieldsSchema.extend({ children: z.array(z.unknown()).max(0) })),
}) as unknown as z.ZodType<AgentNode>;

/** The tracker's tree for one conversation: one entry per top-level run that spawned sub-agents. */
export const AgentTreeSchema = z.object({
  conversation_id: z.string(),
  /** The tree holds every event up to this seq: stream from it to stay live. */
  last_seq: z.number().int(),
  roots: z.array(
    z.object({
      run_id: z.string(),
      status: SubagentStatusSchema,
      children: z.array(AgentNodeSchema),
    }),
  ),
});
export type AgentTree = z.infer<typeof AgentTreeSchema>;

/** Stable codes of sub-agent errors. */
export const SUBAGENT_ERROR_CODES = [
  'SUBAGENT_TOOL_NOT_ALLOWED',
  'SUBAGENT_DEPTH_EXCEEDED',
  'SUBAGENT_PROFILE_NOT_FOUND',
  'SUBAGENT_TOOL_CALLS_EXCEEDED',
  'SUBAGENT_TOKENS_EXCEEDED',
  'SUBAGENT_TIME_EXCEEDED',
] as const;
export type SubagentErrorCode = (typeof SUBAGENT_ERROR_CODES)[number];

/** How deep sub-agents nest: a sub-agent of a sub-agent, no further (spec/issue 11). */
export const MAX_SUBAGENT_DEPTH = 2;
