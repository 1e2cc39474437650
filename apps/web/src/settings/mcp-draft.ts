import type { McpServerCreate } from '@youyou/contracts';

/** What the add-server form holds, as the person typed it. */
export interface McpDraft {
  name: string;
  transport: 'stdio' | 'http';
  command: string;
  /** One argument per line. */
  args: string;
  /** `KEY=value` per line. */
  env: string;
  cwd: string;
  url: string;
  /** `Name: value` per line. */
  headers: string;
  /** `Name: value` per line; stored as secrets. */
  secretHeaders: string;
  scope: 'user' | 'project';
  projectId: string;
  toolTimeoutSeconds: string;
}

export const EMPTY_MCP_DRAFT: McpDraft = {
  name: '',
  transport: 'stdio',
  command: '',
  args: '',
  env: '',
  cwd: '',
  url: '',
  headers: '',
  secretHeaders: '',
  scope: 'user',
  projectId: '',
  toolTimeoutSeconds: '',
};

/** The server's rule for names: they prefix tool names (`<server>__<tool>`). */
export const MCP_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function pairs(text: string, separator: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const line of lines(text)) {
    const at = line.indexOf(separator);
    if (at <= 0) continue;
    result[line.slice(0, at).trim()] = line.slice(at + separator.length).trim();
  }
  return result;
}

/**
 * The create request for a draft.
 *
 * @example
 * mcpCreateOf({ ...EMPTY_MCP_DRAFT, name: 'fs', command: 'npx', args: '-y\n@modelcontextprotocol/server-filesystem\n/tmp' });
 */
export function mcpCreateOf(draft: McpDraft): McpServerCreate {
  const seconds = Number(draft.toolTimeoutSeconds);
  const common = {
    name: draft.name.trim(),
    scope: draft.scope,
    ...(draft.scope === 'project' && draft.projectId !== '' ? { project_id: draft.projectId } : {}),
    ...(draft.toolTimeoutSeconds.trim() !== '' && Number.isFinite(seconds) && seconds > 0
      ? { tool_timeout_ms: Math.round(seconds * 1000) }
      : {}),
  };
  if (draft.transport === 'stdio') {
    return {
      ...common,
      transport: {
        type: 'stdio',
        command: draft.command.trim(),
        args: lines(draft.args),
        env: pairs(draft.env, '='),
        ...(draft.cwd.trim() === '' ? {} : { cwd: draft.cwd.trim() }),
      },
    };
  }
  const secretHeaders = pairs(draft.secretHeaders, ':');
  return {
    ...common,
    transport: { type: 'http', url: draft.url.trim(), headers: pairs(draft.headers, ':') },
    ...(Object.keys(secretHeaders).length === 0 ? {} : { secret_headers: secretHeaders }),
  };
}

/** True when the draft can be sent (the server checks the rest). */
export function isMcpDraftValid(draft: McpDraft): boolean {
  if (!MCP_NAME_PATTERN.test(draft.name.trim()) || draft.name.includes('--')) return false;
  if (draft.scope === 'project' && draft.projectId === '') return false;
  return draft.transport === 'stdio' ? draft.command.trim() !== '' : /^https?:\/\/.+/.test(draft.url.trim());
}
