/** The tables of issue 10 (migration 0010): HITL cards, tool audit and grants, planboards. */

export interface HitlCardsTable {
  id: string;
  conversation_id: string;
  run_id: string;
  message_id: string;
  call_id: string;
  kind: string;
  /** JSON of `HitlCard`. */
  card: string;
  status: 'pending' | 'answered' | 'expired' | 'cancelled' | 'superseded';
  /** JSON of `HitlResolvedPayload`. */
  resolution: string | null;
  client_key: string | null;
  instance_id: string | null;
  created_at: number;
  expires_at: number | null;
  resolved_at: number | null;
}

export interface ToolAuditTable {
  id: string;
  /** Null for a panel's button pressed outside any conversation. */
  conversation_id: string | null;
  project_id: string | null;
  run_id: string;
  call_id: string;
  tool_name: string;
  arguments_summary: string;
  outcome: string;
  error_code: string | null;
  duration_ms: number;
  policy: string;
  decided_by: string;
  card_id: string | null;
  started_at: number;
  ended_at: number;
  /** The registry source of what ran (`extension:<id>`); null for a run's ordinary tool call. */
  source: string | null;
  /** Who asked: `agent` (a run's call) or `user` (a panel's or card's button). */
  actor: string;
}

export interface ToolGrantsTable {
  conversation_id: string;
  tool_name: string;
  card_id: string | null;
  created_at: number;
}

export interface PlanboardsTable {
  conversation_id: string;
  /** JSON of `PlanStep[]`. */
  plan: string;
  plan_version: number;
  plan_explanation: string | null;
  /** JSON of `TodoItem[]`. */
  todos: string;
  todos_version: number;
  /** JSON of `TodoChange[]` the model has not been told of yet. */
  pending_changes: string;
  updated_at: number;
}

export interface HitlSchema {
  hitl_cards: HitlCardsTable;
  tool_audit: ToolAuditTable;
  tool_grants: ToolGrantsTable;
  planboards: PlanboardsTable;
}
