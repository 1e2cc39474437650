import type { ToolAuditRecord, ToolCallOutcome } from '@youyou/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { Schema, ToolAuditTable } from '../database/index.ts';

const SUMMARY_LIMIT = 400;
const VALUE_LIMIT = 120;
const SECRET_KEY = /(pass(word)?|secret|token|api[_-]?key|authorization|credential|private[_-]?key)/i;

/**
 * The arguments as the audit keeps them: short, each value clipped, secret-looking fields masked.
 *
 * @example
 * summarizeArguments('{"path":"a.txt","api_key":"sk-1"}'); // 'path="a.txt", api_key=***'
 */
export function summarizeArguments(raw: string): string {
  let parsed: unknown;
  try {
    parsed = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    return raw.slice(0, SUMMARY_LIMIT);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return JSON.stringify(parsed).slice(0, SUMMARY_LIMIT);
  const parts = Object.entries(parsed as Record<string, unknown>).map(([key, value]) => {
    if (SECRET_KEY.test(key)) return `${key}=***`;
    const text = JSON.stringify(value) ?? 'null';
    return `${key}=${text.length > VALUE_LIMIT ? `${text.slice(0, VALUE_LIMIT)}…` : text}`;
  });
  const summary = parts.join(', ');
  return summary.length > SUMMARY_LIMIT ? `${summary.slice(0, SUMMARY_LIMIT)}…` : summary;
}

/** How a call ended, from its result (`Error [CODE]: …` is the dispatcher's failure form). */
export function outcomeOf(
  output: string,
  success: boolean,
  denied: boolean,
): { outcome: ToolCallOutcome; errorCode: string | null } {
  if (success) return { outcome: 'success', errorCode: null };
  const code = /^Error \[([A-Z_]+)\]/.exec(output)?.[1] ?? null;
  if (denied) return { outcome: 'denied', errorCode: code };
  if (code === 'REQUEST_CANCELLED') return { outcome: 'cancelled', errorCode: code };
  if (code === 'TOOL_TIMEOUT') return { outcome: 'timeout', errorCode: code };
  return { outcome: 'error', errorCode: code };
}

function recordOfRow(row: Selectable<ToolAuditTable>): ToolAuditRecord {
  return {
    ...row,
    outcome: row.outcome as ToolCallOutcome,
    policy: row.policy as ToolAuditRecord['policy'],
    decided_by: row.decided_by as ToolAuditRecord['decided_by'],
    actor: row.actor === 'user' ? 'user' : 'agent',
    duration_ms: Number(row.duration_ms),
    started_at: new Date(Number(row.started_at)).toISOString(),
    ended_at: new Date(Number(row.ended_at)).toISOString(),
  };
}

/**
 * The audit of every tool call (spec §4.8): written with the call's result, in its transaction.
 *
 * @example
 * const calls = await audit.list({ conversationId, limit: 50 });
 */
export class ToolAuditRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  /** Writes one call; `actor` defaults to `agent` and `source` to none (a run's ordinary call). */
  async insert(
    row: Omit<Selectable<ToolAuditTable>, 'source' | 'actor'> &
      Partial<Pick<Selectable<ToolAuditTable>, 'source' | 'actor'>>,
    db: Kysely<Schema> = this.#db,
  ): Promise<void> {
    await db
      .insertInto('tool_audit')
      .values({ ...row, source: row.source ?? null, actor: row.actor ?? 'agent' })
      .execute();
  }

  async list(options: {
    conversationId?: string;
    projectId?: string;
    callId?: string;
    toolName?: string;
    /** Only calls of one registry source (`extension:<id>`). */
    source?: string;
    limit: number;
    /** Only calls that started before this (ms), for paging back. */
    before?: number;
  }): Promise<ToolAuditRecord[]> {
    let query = this.#db.selectFrom('tool_audit').selectAll();
    if (options.conversationId !== undefined)
      query = query.where('conversation_id', '=', options.conversationId);
    if (options.projectId !== undefined) query = query.where('project_id', '=', options.projectId);
    if (options.callId !== undefined) query = query.where('call_id', '=', options.callId);
    if (options.toolName !== undefined) query = query.where('tool_name', '=', options.toolName);
    if (options.source !== undefined) query = query.where('source', '=', options.source);
    if (options.before !== undefined) query = query.where('started_at', '<', options.before);
    const rows = await query
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(options.limit)
      .execute();
    return rows.map(recordOfRow);
  }
}
