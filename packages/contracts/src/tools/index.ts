import { z } from 'zod';
import type { ToolDecider } from '../hitl/index.ts';

/**
 * The tool registry's shapes (spec agent-system-skeleton-design-r4 §4.7, §4.8): per-tool enablement
 * and confirmation policy, and the audit of every call.
 */

/** `auto` runs at once, `confirm` asks the user first (a confirm card), `deny` never runs. */
export const TOOL_POLICIES = ['auto', 'confirm', 'deny'] as const;
export type ToolPolicy = (typeof TOOL_POLICIES)[number];

/** Where a tool comes from (`mcp`: a tool of a configured MCP server, `<server>__<tool>`; `extension`: a declarative tool of an extension). */
export const TOOL_SOURCES = ['builtin', 'programmatic', 'global', 'project', 'mcp', 'extension'] as const;
export type ToolSource = (typeof TOOL_SOURCES)[number];

/** A tool as `GET /api/tools` lists it. */
export interface ToolInfo {
  name: string;
  description: string;
  mutating: boolean;
  source: ToolSource;
  enabled: boolean;
  policy: ToolPolicy;
  /** What the policy is when the user has not set one: auto for read-only tools, confirm otherwise. */
  default_policy: ToolPolicy;
}

/** The user's settings of one tool (`PUT /api/tools/:name`); null removes the override. */
export const toolSettingsPatchSchema = z.object({
  enabled: z.boolean().nullable().optional(),
  policy: z.enum(TOOL_POLICIES).nullable().optional(),
});
export type ToolSettingsPatch = z.infer<typeof toolSettingsPatchSchema>;

/** How a call ended. */
export const TOOL_CALL_OUTCOMES = ['success', 'error', 'denied', 'cancelled', 'timeout'] as const;
export type ToolCallOutcome = (typeof TOOL_CALL_OUTCOMES)[number];

/** One audited tool call (spec §4.8). */
export interface ToolAuditRecord {
  id: string;
  /** Null for a panel's button pressed outside any conversation. */
  conversation_id: string | null;
  project_id: string | null;
  run_id: string;
  call_id: string;
  tool_name: string;
  /** The arguments, shortened and with secrets-looking values masked. */
  arguments_summary: string;
  outcome: ToolCallOutcome;
  error_code: string | null;
  duration_ms: number;
  /** The policy that applied. */
  policy: ToolPolicy;
  decided_by: ToolDecider;
  /** For confirm cards: the card. */
  card_id: string | null;
  started_at: string;
  ended_at: string;
  /** The registry source of what ran (`extension:<id>` for an extension's panel or card); null for a run's call. */
  source: string | null;
  /** Who asked for the call: the agent in a run, or the user pressing a panel's or card's button. */
  actor: ToolAuditActor;
}

/** Who asked for an audited call. */
export type ToolAuditActor = 'agent' | 'user';
