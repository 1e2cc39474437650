import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveYouyouHome } from '@youyou/agent/files';
import { PACKAGE_FOLDER } from '../version/index.ts';
import { DEFAULT_TOOL_RESULT_BUDGET_BYTES } from '../artifacts/index.ts';
import type { LogDestination } from '../logging/index.ts';
import { DEFAULT_SUBAGENT_OPTIONS, type SubagentOptions } from '../subagents/index.ts';

/** How `youyou serve` is configured; every field has a default. */
export interface ServerOptions {
  /** Default 127.0.0.1. Anything else prints a warning: the token is all that guards the machine. */
  host?: string;
  /** Default 4280; 0 picks a free port. */
  port?: number;
  /** Default `{home}/workbench`: the SQLite database, uploads, the token and the secret key. */
  dataDirectory?: string;
  /** `postgres://…` to use PostgreSQL instead of SQLite. */
  databaseUrl?: string;
  /** The YouYou home (global components, config.yaml); default `YOUYOU_HOME` or `~/.youyou`. */
  home?: string;
  /** Project directories must lie inside these; default the user's home directory. */
  workspaceRoots?: string[];
  /** DNS names the Host header may carry besides localhost and IP literals. */
  allowedHosts?: string[];
  /** Default `info`. */
  logLevel?: string;
  logDestination?: LogDestination;
  prettyLogs?: boolean;
  /** Apply pending migrations on start; default true. */
  migrate?: boolean;
  heartbeatMs?: number;
  stallTimeoutMs?: number;
  deltaIntervalMs?: number;
  agentIdleMs?: number;
  /** A tool result over this many bytes is stored as an artifact (spec §4.10); default 16 KB. */
  toolResultBudgetBytes?: number;
  /** Sub-agents: how many of one parent run at once (default 4), and their default budget. */
  subagents?: Partial<SubagentOptions>;
  /** The first restart of a crashed MCP server waits this long, doubling each time; default 1 s. */
  mcpRestartBaseMs?: number;
  /** How long a cancelled run waits for a running MCP tool before cancelling it; default 10 s. */
  mcpCancelGraceMs?: number;
  /**
   * The confirmation policy of mutating tools the user set none for: `confirm` (spec §4.8, the
   * default). Test harnesses that are not about confirmation run with `auto`.
   */
  mutatingToolPolicy?: 'auto' | 'confirm' | 'deny';
  maxUploadBytes?: number;
  maxJsonBytes?: number;
  /** The built web UI; default `apps/web/dist` when it exists. */
  webRoot?: string;
  /** How often runs orphaned by a dead server are looked for; default 5 s (PostgreSQL), 30 s (SQLite). */
  sweepIntervalMs?: number;
}

/**
 * @example
 * startServer({ port: DEFAULT_PORT }); // http://127.0.0.1:4280
 */
export const DEFAULT_PORT = 4280;

/** Options with every default filled in. */
export interface ResolvedServerOptions {
  host: string;
  port: number;
  dataDirectory: string;
  databaseUrl: string | undefined;
  home: string;
  workspaceRoots: string[];
  allowedHosts: string[];
  logLevel: string;
  logDestination: LogDestination | undefined;
  prettyLogs: boolean | undefined;
  migrate: boolean;
  heartbeatMs: number;
  stallTimeoutMs: number;
  deltaIntervalMs: number;
  agentIdleMs: number;
  toolResultBudgetBytes: number;
  subagents: SubagentOptions;
  mcpRestartBaseMs: number | undefined;
  mcpCancelGraceMs: number | undefined;
  mutatingToolPolicy: 'auto' | 'confirm' | 'deny';
  maxUploadBytes: number;
  maxJsonBytes: number;
  webRoot: string | undefined;
  sweepIntervalMs: number;
}

/**
 * Fills in the defaults.
 *
 * @example
 * const resolved = resolveServerOptions({ port: 0, dataDirectory: '/tmp/workbench' });
 */
export function resolveServerOptions(options: ServerOptions = {}): ResolvedServerOptions {
  const home = resolve(options.home ?? resolveYouyouHome());
  // The published package carries the UI in web/ (decision 0032); the workspace serves apps/web/dist.
  const webDefault =
    PACKAGE_FOLDER === undefined
      ? undefined
      : [join(PACKAGE_FOLDER, 'web'), resolve(PACKAGE_FOLDER, '../web/dist')].find((folder) =>
          existsSync(join(folder, 'index.html')),
        );
  const postgres = options.databaseUrl !== undefined && /^postgres(ql)?:\/\//i.test(options.databaseUrl);
  return {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? DEFAULT_PORT,
    dataDirectory: resolve(options.dataDirectory ?? join(home, 'workbench')),
    databaseUrl: options.databaseUrl,
    home,
    workspaceRoots: (options.workspaceRoots ?? [homedir()]).map((root) => resolve(root)),
    allowedHosts: options.allowedHosts ?? [],
    logLevel: options.logLevel ?? 'info',
    logDestination: options.logDestination,
    prettyLogs: options.prettyLogs,
    migrate: options.migrate ?? true,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    stallTimeoutMs: options.stallTimeoutMs ?? 30_000,
    deltaIntervalMs: options.deltaIntervalMs ?? 8,
    agentIdleMs: options.agentIdleMs ?? 300_000,
    toolResultBudgetBytes: options.toolResultBudgetBytes ?? DEFAULT_TOOL_RESULT_BUDGET_BYTES,
    subagents: { ...DEFAULT_SUBAGENT_OPTIONS, ...options.subagents },
    mcpRestartBaseMs: options.mcpRestartBaseMs,
    mcpCancelGraceMs: options.mcpCancelGraceMs,
    mutatingToolPolicy: options.mutatingToolPolicy ?? 'confirm',
    maxUploadBytes: options.maxUploadBytes ?? 20 * 1024 * 1024,
    maxJsonBytes: options.maxJsonBytes ?? 2 * 1024 * 1024,
    webRoot:
      options.webRoot ??
      // The single executable unpacks its embedded UI and names the folder here.
      process.env['YOUYOU_WEB_ROOT'] ??
      webDefault,
    sweepIntervalMs: options.sweepIntervalMs ?? (postgres ? 5_000 : 30_000),
  };
}
