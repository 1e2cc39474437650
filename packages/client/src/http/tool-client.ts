import type { ToolAuditRecord, ToolInfo, ToolSettingsPatch } from '@youyou/contracts';
import type { Connection } from '../connection/index.ts';

/** Tool settings, grants and the audit of tool calls (spec §4.4, §4.8), as the workbench client has them. */
export interface ToolClientMethods {
  /** The audit of tool calls in a conversation, newest first (one call with `callId`). */
  toolCalls(conversationId: string, options?: { callId?: string }): Promise<ToolAuditRecord[]>;
  /**
   * The audit of tool calls in every conversation, newest first: one tool's with `toolName`, older
   * pages with `before` (ms since the epoch, the oldest `started_at` of the page seen).
   */
  allToolCalls(options?: { toolName?: string; limit?: number; before?: number }): Promise<ToolAuditRecord[]>;
  /** The audit of tool calls in a project's conversations, newest first. */
  projectToolCalls(
    projectId: string,
    options?: { limit?: number; before?: number },
  ): Promise<ToolAuditRecord[]>;
  /** The tools the user allowed for the rest of a conversation ("always allow" on a card). */
  toolGrants(conversationId: string): Promise<string[]>;
  /** Withdraws one such grant: the tool asks again. */
  revokeToolGrant(conversationId: string, toolName: string): Promise<void>;
  /** Every tool with its enablement and confirmation policy. */
  listTools(): Promise<ToolInfo[]>;
  updateTool(name: string, patch: ToolSettingsPatch): Promise<ToolInfo>;
  /** The user's IANA time zone (`current_time` answers in it). */
  setTimeZone(timeZone: string): Promise<void>;
}

const segment = encodeURIComponent;

/** The tool methods over one connection. */
export function toolClientMethods(connection: Connection): ToolClientMethods {
  const json = connection.json.bind(connection);
  return {
    toolCalls: async (conversationId, calls = {}) =>
      (
        await json<{ calls: ToolAuditRecord[] }>(
          'GET',
          `/api/conversations/${segment(conversationId)}/tool-calls`,
          {
            query: { call_id: calls.callId },
          },
        )
      ).calls,
    allToolCalls: async (calls = {}) =>
      (
        await json<{ calls: ToolAuditRecord[] }>('GET', '/api/tool-calls', {
          query: { tool_name: calls.toolName, limit: calls.limit, before: calls.before },
        })
      ).calls,
    projectToolCalls: async (projectId, calls = {}) =>
      (
        await json<{ calls: ToolAuditRecord[] }>('GET', `/api/projects/${segment(projectId)}/tool-calls`, {
          query: { limit: calls.limit, before: calls.before },
        })
      ).calls,
    toolGrants: async (conversationId) =>
      (await json<{ tools: string[] }>('GET', `/api/conversations/${segment(conversationId)}/tool-grants`))
        .tools,
    revokeToolGrant: async (conversationId, toolName) => {
      await json('DELETE', `/api/conversations/${segment(conversationId)}/tool-grants/${segment(toolName)}`);
    },
    listTools: async () => (await json<{ tools: ToolInfo[] }>('GET', '/api/tools')).tools,
    updateTool: (name, patch) => json('PUT', `/api/tools/${segment(name)}`, { body: patch }),
    setTimeZone: async (timeZone) => {
      await json('PUT', '/api/time-zone', { body: { time_zone: timeZone } });
    },
  };
}
