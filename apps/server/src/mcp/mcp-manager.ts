import { realpath } from 'node:fs/promises';
import {
  AgentError,
  type ComponentSource,
  type LoadedComponents,
  type LoadDiagnostic,
  type ToolHandler,
} from '@youyou/agent';
import type { McpPromptInfo, McpPromptResult, McpServerStatus, McpToolInfo } from '@youyou/contracts';
import type { GetPromptResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import type { ServerLogger } from '../logging/index.ts';
import { cancelGrace, MCP_CANCEL_GRACE_MS } from './mcp-cancel-grace.ts';
import type { McpConnection, McpServerDefinition } from './mcp-connection.ts';
import pino from 'pino';
import { transportOfRow, type McpServerRow } from './mcp-server-repository.ts';
import { mapToolResult } from './mcp-tool-result.ts';
import { namespacedToolName } from './mcp-tool-names.ts';

/** The same settings the agent's argument validator compiles with, so a schema we accept compiles there. */
const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: true, logger: false });

const DEFAULTS: Readonly<Record<string, unknown>> = {
  'mcp.enabled': true,
  'mcp.startup_wait_ms': 15_000,
  'mcp.idle_timeout_minutes': 10,
};

/** Where server configurations come from: the database in the workbench, a list in a script. */
export interface McpServerStore {
  /** Enabled servers that apply to a conversation of `projectId` (the user's, and that project's). */
  applicable(projectId: string | null): Promise<McpServerRow[]>;
  /** A server's secret header values, for its connection only. */
  secretHeaders(row: McpServerRow): Promise<Record<string, string>>;
}

export interface McpManagerOptions<Store extends McpServerStore = McpServerStore> {
  repository: Store;
  /** A project's directory (its servers' roots and working directory); absent: none. */
  projectDirectory?: (projectId: string) => Promise<string | undefined>;
  /** Default: silent. */
  logger?: ServerLogger;
  clientVersion: string;
  /** Where a user server's process runs when its config names no directory. */
  defaultCwd: string;
  /**
   * Reads a setting for a project (`mcp.enabled`, `mcp.startup_wait_ms`, `mcp.idle_timeout_minutes`);
   * without it the defaults apply.
   */
  setting?: <T>(key: string, projectId: string | null) => Promise<T>;
  /** Backoff of restarts after a crash (tests shorten it). */
  restartBaseMs?: number;
  /** How long a cancelled run waits for a running call before cancelling it; default MCP_CANCEL_GRACE_MS. */
  cancelGraceMs?: number;
  /**
   * Variables every stdio server gets besides its own: the owner marker that the leftover-process
   * cleanup at start looks for, so a server orphaned by a `kill -9` is ended like a tool process.
   */
  processEnvironment?: () => Readonly<Record<string, string>>;
}

interface ToolSet {
  handlers: ToolHandler[];
  info: McpToolInfo[];
  skipped: McpServerStatus['skipped_tools'];
}

/**
 * The MCP client side of the workbench (spec §4.8): one connection per configured server, shared
 * by every conversation it applies to; its tools offered to each agent session as ordinary
 * `ToolHandler`s through a `ComponentSource` (read at every session start, so a tool list that
 * changed is what the next turn sees).
 *
 * @example
 * builder.addComponentSource(manager.componentSource(projectId));
 * await manager.shutdown(); // every server process stopped, whole process groups
 */
export class McpManager<Store extends McpServerStore = McpServerStore> {
  readonly #options: McpManagerOptions<Store>;
  readonly #logger: ServerLogger;
  readonly #connections = new Map<string, McpConnection>();
  readonly #toolSets = new WeakMap<readonly Tool[], ToolSet>();
  #closed = false;

  constructor(options: McpManagerOptions<Store>) {
    this.#options = options;
    this.#logger = options.logger ?? pino({ level: 'silent' });
  }

  get repository(): Store {
    return this.#options.repository;
  }

  /** The tools of every server that applies to a conversation of `projectId`, for one session. */
  componentSource(projectId: string | null): ComponentSource {
    return {
      load: async () => this.#load(projectId),
    };
  }

  /** A server's live status (its connection is not started by asking). */
  status(row: McpServerRow): McpServerStatus {
    const connection = this.#connections.get(row.id);
    const tools = connection === undefined ? undefined : this.#toolSet(row, connection);
    const base = connection?.status() ?? {
      state: 'idle' as const,
      error: null,
      restarts: 0,
      retry_at: null,
      server_info: null,
      connected_at: null,
      pid: null,
      stderr_tail: [],
    };
    return {
      ...base,
      state: row.enabled === 1 ? base.state : 'disabled',
      tool_count: tools?.handlers.length ?? 0,
      tools: tools?.info ?? [],
      skipped_tools: tools?.skipped ?? [],
    };
  }

  /** Connects now (the "test connection" button), waiting up to `waitMs`, and reports the status. */
  async connect(row: McpServerRow, waitMs = 30_000): Promise<McpServerStatus> {
    if (row.enabled === 1) {
      const connection = await this.#connection(row);
      await withTimeout(connection.tools(), waitMs).catch(() => {});
    }
    return this.status(row);
  }

  /**
   * The prompts of the servers that apply to `projectId` and are connected now (listing commands
   * does not start servers), as `/` commands `<server>__<prompt>`. A server that fails to list them
   * in `waitMs` is left out.
   */
  async prompts(projectId: string | null, waitMs = 2_000): Promise<McpPromptInfo[]> {
    if (!(await this.#setting<boolean>('mcp.enabled', projectId))) return [];
    const rows = await this.#options.repository.applicable(projectId);
    const listed = await Promise.all(
      rows.map(async (row) => {
        const connection = this.#connections.get(row.id);
        if (connection === undefined || !connection.connected) return [];
        try {
          const prompts = await withTimeout(connection.prompts(), waitMs);
          return prompts.flatMap((prompt): McpPromptInfo[] => {
            const command = namespacedToolName(row.name, prompt.name)?.toLowerCase();
            const argumentsOk = (prompt.arguments ?? []).every((argument) =>
              /^[A-Za-z_][\w-]{0,63}$/.test(argument.name),
            );
            if (command === undefined || !argumentsOk) return [];
            return [
              {
                server_id: row.id,
                server: row.name,
                name: prompt.name,
                command,
                description:
                  prompt.description ?? prompt.title ?? `${prompt.name} (from the MCP server ${row.name})`,
                arguments: (prompt.arguments ?? []).map((argument) => ({
                  name: argument.name,
                  description: argument.description ?? '',
                  required: argument.required === true,
                })),
              },
            ];
          });
        } catch (error) {
          this.#logger.warn({ err: error, server: row.name }, 'an MCP server did not list its prompts');
          return [];
        }
      }),
    );
    return listed.flat();
  }

  /** Fills one of a server's prompts (`prompts/get`), starting the server when needed. */
  async prompt(row: McpServerRow, name: string, args: Record<string, string>): Promise<McpPromptResult> {
    const connection = await this.#connection(row);
    return promptResultOf(await connection.prompt(name, args));
  }

  /** The configuration changed or went: the old connection stops; the next use starts anew. */
  async forget(serverId: string): Promise<void> {
    const connection = this.#connections.get(serverId);
    this.#connections.delete(serverId);
    await connection?.stop();
  }

  /** Stops every server (process groups included) and refuses new connections. */
  async shutdown(): Promise<void> {
    this.#closed = true;
    const connections = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.allSettled(connections.map((connection) => connection.stop()));
  }

  async #setting<T>(key: string, projectId: string | null): Promise<T> {
    const read = this.#options.setting;
    if (read !== undefined) {
      try {
        return await read<T>(key, projectId);
      } catch (error) {
        this.#logger.warn({ err: error, key }, 'an MCP setting could not be read; its default applies');
      }
    }
    return DEFAULTS[key] as T;
  }

  async #load(projectId: string | null): Promise<LoadedComponents> {
    const empty = { tools: [], skills: [], plugins: [] };
    if (!(await this.#setting<boolean>('mcp.enabled', projectId))) {
      return { global: empty, project: empty, diagnostics: [] };
    }
    const rows = await this.#options.repository.applicable(projectId);
    const startupWaitMs = await this.#setting<number>('mcp.startup_wait_ms', projectId);
    const diagnostics: LoadDiagnostic[] = [];
    const loaded = await Promise.all(
      rows.map(async (row) => {
        try {
          const connection = await this.#connection(row);
          await withTimeout(connection.tools(), startupWaitMs);
          return { row, tools: this.#toolSet(row, connection).handlers };
        } catch (error) {
          diagnostics.push({
            path: `mcp:${row.name}`,
            reason: error instanceof Error ? error.message : String(error),
            severity: 'warning',
          });
          return { row, tools: [] };
        }
      }),
    );
    const layer = (scope: 'user' | 'project') => ({
      tools: loaded
        .filter(({ row }) => row.scope === scope)
        .flatMap(({ tools }) => tools.map((tool) => ({ tool }))),
      skills: [],
      plugins: [],
    });
    return { global: layer('user'), project: layer('project'), diagnostics };
  }

  async #connection(row: McpServerRow): Promise<McpConnection> {
    if (this.#closed) throw new Error('The workbench is stopping.');
    const existing = this.#connections.get(row.id);
    if (existing !== undefined && existing.definition.version === row.updated_at) return existing;
    if (existing !== undefined) void existing.stop();
    // The MCP SDK (and its schemas) loads with the first server that connects: most workbenches
    // idle without one, and it is a fifth of the server's idle heap.
    const { McpConnection } = await import('./mcp-connection.ts');
    const connection = new McpConnection({
      definition: await this.#definition(row),
      logger: this.#logger,
      clientVersion: this.#options.clientVersion,
      ...(this.#options.restartBaseMs === undefined ? {} : { restartBaseMs: this.#options.restartBaseMs }),
      ...(this.#options.processEnvironment === undefined
        ? {}
        : { processEnvironment: this.#options.processEnvironment }),
    });
    // Another caller may have made one while this one resolved the project directory.
    const raced = this.#connections.get(row.id);
    if (raced !== undefined && raced !== existing && raced.definition.version === row.updated_at) {
      void connection.stop();
      return raced;
    }
    this.#connections.set(row.id, connection);
    return connection;
  }

  async #definition(row: McpServerRow): Promise<McpServerDefinition> {
    let projectDirectory: string | undefined;
    if (row.project_id !== null) {
      const directory = await this.#options.projectDirectory?.(row.project_id);
      if (directory !== undefined) projectDirectory = await realpath(directory).catch(() => undefined);
    }
    return {
      id: row.id,
      name: row.name,
      version: row.updated_at,
      transport: transportOfRow(row),
      cwd: projectDirectory ?? this.#options.defaultCwd,
      roots: projectDirectory === undefined ? [] : [projectDirectory],
      toolTimeoutMs: row.tool_timeout_ms ?? undefined,
      idleTimeoutMs:
        row.idle_timeout_ms ??
        (await this.#setting<number>('mcp.idle_timeout_minutes', row.project_id)) * 60_000,
      secretHeaders: () => this.#options.repository.secretHeaders(row),
    };
  }

  /** The handlers for a connection's current tool list, built once per list. */
  #toolSet(row: McpServerRow, connection: McpConnection): ToolSet {
    const listed = connection.listedTools;
    const cached = this.#toolSets.get(listed);
    if (cached !== undefined) return cached;
    const set: ToolSet = { handlers: [], info: [], skipped: [] };
    const seen = new Set<string>();
    for (const tool of listed) {
      const name = namespacedToolName(row.name, tool.name);
      const skip = (reason: string) => set.skipped.push({ remote_name: tool.name, reason });
      if (name === undefined || seen.has(name)) {
        skip(name === undefined ? 'its name is empty' : `its name becomes '${name}', like another tool's`);
        continue;
      }
      if (tool.execution?.taskSupport === 'required') {
        skip('it runs only as an MCP task, which YouYou does not support yet');
        continue;
      }
      const parameters = normalizeSchema(tool.inputSchema);
      try {
        ajv.compile(parameters);
      } catch (error) {
        skip(`its input schema does not compile: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      seen.add(name);
      // Unannotated tools count as mutating (the safe side): one in a batch makes it serial, and
      // the confirmation policy treats it as a tool with side effects.
      const readOnly = tool.annotations?.readOnlyHint === true && tool.annotations.destructiveHint !== true;
      const destructive = !readOnly && tool.annotations?.destructiveHint !== false;
      const timeoutMs = connection.definition.toolTimeoutMs;
      const serverName = row.name;
      const graceMs = this.#options.cancelGraceMs ?? MCP_CANCEL_GRACE_MS;
      set.handlers.push({
        name,
        description: tool.description ?? tool.title ?? `${tool.name} (from the MCP server ${serverName})`,
        parameters,
        mutating: !readOnly,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        execute: async (input, context) => {
          // Spec §6.2: a cancelled turn waits for running tools. An MCP call gets a grace period to
          // finish (its result is recorded), then is cancelled the MCP way (decision 0036).
          const grace = cancelGrace(context.cancelSignal, graceMs);
          try {
            const result = await connection.call(
              tool.name,
              { ...input.arguments },
              { signal: AbortSignal.any([context.signal, grace.signal]), timeoutMs },
            );
            return mapToolResult(result, { server: serverName, tool: tool.name });
          } catch (error) {
            if (!grace.signal.aborted || context.signal.aborted) throw error;
            throw new AgentError(
              'REQUEST_CANCELLED',
              `The run was cancelled and the call had not finished ${graceMs} ms later, so the MCP server '${serverName}' was asked to stop it.`,
              { cause: error, source: 'tool' },
            );
          } finally {
            grace.dispose();
          }
        },
      });
      set.info.push({
        name,
        remote_name: tool.name,
        description: tool.description ?? '',
        mutating: !readOnly,
        destructive,
      });
    }
    this.#toolSets.set(listed, set);
    return set;
  }
}

/**
 * An MCP input schema as the agent's validator takes it: always an object schema; the draft
 * marker dropped (the validator speaks draft-07, and the keywords MCP servers use are the same).
 */
function normalizeSchema(schema: Tool['inputSchema']): Record<string, unknown> {
  const { $schema: _draft, ...rest } = schema as Record<string, unknown>;
  return { ...rest, type: 'object' };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`still starting after ${ms} ms; its tools come in a later turn`)),
        ms,
      );
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}

/** A filled prompt as text: each message's text parts (resources by their text, media named). */
function promptResultOf(result: GetPromptResult): McpPromptResult {
  const messages = result.messages.map((message) => {
    const content = message.content;
    let text: string;
    switch (content.type) {
      case 'text':
        text = content.text;
        break;
      case 'resource':
        text = 'text' in content.resource ? String(content.resource.text) : `[${content.resource.uri}]`;
        break;
      case 'resource_link':
        text = `[${content.name}](${content.uri})`;
        break;
      default:
        text = `[${content.type}]`;
    }
    return { role: message.role, text };
  });
  return {
    description: result.description ?? null,
    messages,
    text: messages.map((message) => message.text).join('\n\n'),
  };
}
