import type { McpServerStatus, McpTransport } from '@youyou/contracts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ListRootsRequestSchema,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type GetPromptResult,
  type Prompt,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerLogger } from '../logging/index.ts';
import type { OversizedMessage } from './message-framing.ts';
import { MESSAGE_TOO_LARGE, ProcessGroupTransport } from './process-group-transport.ts';

/** What a connection needs to know about its server; a new definition means a new connection. */
export interface McpServerDefinition {
  id: string;
  name: string;
  /** Changes whenever the stored configuration does. */
  version: number;
  transport: McpTransport;
  /** The working directory of a stdio server. */
  cwd: string;
  /** Directories offered as MCP roots (the project directory of a project server). */
  roots: readonly string[];
  toolTimeoutMs: number | undefined;
  idleTimeoutMs: number;
  /** Header values kept as secrets, revealed only when connecting. */
  secretHeaders: () => Promise<Record<string, string>>;
}

export interface McpConnectionOptions {
  definition: McpServerDefinition;
  logger: ServerLogger;
  clientVersion: string;
  /** Variables a stdio server gets besides its own (the workbench's owner marker). */
  processEnvironment?: () => Readonly<Record<string, string>>;
  /** The first restart waits this long after a crash; each next one twice as long, up to a minute. */
  restartBaseMs?: number;
  /** Consecutive failed starts after which the connection waits for the next use to try again. */
  maxRestarts?: number;
  /** How long `initialize` may take (an `npx` download counts). */
  connectTimeoutMs?: number;
}

const STDERR_LINES = 50;
const MAX_BACKOFF_MS = 60_000;

/**
 * One MCP server's connection, with the lifecycle spec §4.8 asks for: started on first use, tools
 * listed and re-listed on `notifications/tools/list_changed`, restarted with backoff when it
 * crashes, stopped when idle, its stderr logged, its state reported.
 *
 * @example
 * const connection = new McpConnection({ definition, logger, clientVersion: '0.1.0' });
 * const tools = await connection.tools();
 * const result = await connection.call('echo', { message: 'hi' }, { signal });
 */
export class McpConnection {
  readonly definition: McpServerDefinition;
  readonly #options: McpConnectionOptions;
  readonly #logger: ServerLogger;
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  #state: McpServerStatus['state'] = 'idle';
  #error: string | null = null;
  #tools: Tool[] = [];
  #serverInfo: McpServerStatus['server_info'] = null;
  #connectedAt: number | undefined;
  #restarts = 0;
  #failures = 0;
  #retryAt: number | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #inFlight = 0;
  #stopped = false;
  /** The stdio transport of the current connection (its process id is in the status). */
  #stdio: ProcessGroupTransport | undefined;
  /** An oversized reply was dropped: the server is restarted once no call is in flight. */
  #restartWhenIdle = false;
  readonly #stderr: string[] = [];
  readonly #toolListeners = new Set<() => void>();

  constructor(options: McpConnectionOptions) {
    this.definition = options.definition;
    this.#options = options;
    this.#logger = options.logger.child({ component: 'mcp', mcpServer: options.definition.name });
  }

  status(): Omit<McpServerStatus, 'tools' | 'skipped_tools' | 'tool_count'> {
    return {
      state: this.#state,
      error: this.#error,
      restarts: this.#restarts,
      retry_at: this.#retryAt === undefined ? null : new Date(this.#retryAt).toISOString(),
      server_info: this.#serverInfo,
      connected_at: this.#connectedAt === undefined ? null : new Date(this.#connectedAt).toISOString(),
      pid: this.#client === undefined ? null : (this.#stdio?.pid ?? null),
      stderr_tail: [...this.#stderr],
    };
  }

  /** The tools as last listed (empty until the first connection). */
  get listedTools(): readonly Tool[] {
    return this.#tools;
  }

  /** Called whenever the server's tool list changes. */
  onToolsChanged(listener: () => void): () => void {
    this.#toolListeners.add(listener);
    return () => this.#toolListeners.delete(listener);
  }

  /** Connects if needed and returns the server's tools. */
  async tools(): Promise<readonly Tool[]> {
    await this.#ensure();
    this.#touch();
    return this.#tools;
  }

  /**
   * Calls a tool. Aborting `signal` sends MCP's `notifications/cancelled` for the request (the
   * SDK does) and rejects with the signal's reason.
   */
  async call(
    remoteName: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs?: number | undefined },
  ): Promise<CallToolResult> {
    const client = await this.#ensure();
    this.#inFlight++;
    clearTimeout(this.#idleTimer);
    try {
      const result = await client.callTool({ name: remoteName, arguments: args }, undefined, {
        // A signal of this call's own: the SDK never removes its abort listener, which would pile
        // up on a long-lived caller's signal.
        signal: AbortSignal.any([options.signal]),
        // The dispatcher owns the timeout (it aborts `signal`); the SDK's own default of 60 s must
        // not cut a tool the user allowed longer.
        timeout: options.timeoutMs ?? 24 * 3_600_000,
      });
      return result as CallToolResult;
    } catch (error) {
      if (error instanceof McpError && isRecord(error.data) && error.data['code'] === MESSAGE_TOO_LARGE) {
        const { bytes, limit } = error.data;
        throw new Error(
          `${MESSAGE_TOO_LARGE}: the MCP server '${this.definition.name}' answered '${remoteName}' with a message of ${String(bytes)} bytes, over the limit of ${String(limit)}; the reply was dropped and the server is restarted.`,
          { cause: error },
        );
      }
      throw error;
    } finally {
      this.#inFlight--;
      if (this.#restartWhenIdle && this.#inFlight === 0) void this.#restart('an oversized reply was dropped');
      this.#touch();
    }
  }

  /** True while connected: a caller that must not start the server asks first. */
  get connected(): boolean {
    return this.#client !== undefined;
  }

  /** The server's prompts (MCP `prompts/list`, every page); none when it offers no prompts. */
  async prompts(): Promise<readonly Prompt[]> {
    const client = await this.#ensure();
    this.#touch();
    if (client.getServerCapabilities()?.prompts === undefined) return [];
    const prompts: Prompt[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listPrompts(cursor === undefined ? {} : { cursor });
      prompts.push(...page.prompts);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return prompts;
  }

  /** One prompt filled with `args` (MCP `prompts/get`). */
  async prompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    const client = await this.#ensure();
    this.#inFlight++;
    clearTimeout(this.#idleTimer);
    try {
      return await client.getPrompt({ name, arguments: args });
    } finally {
      this.#inFlight--;
      this.#touch();
    }
  }

  /** Stops the server for good (configuration changed or removed, or the workbench stops). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retryTimer);
    clearTimeout(this.#idleTimer);
    this.#retryAt = undefined;
    await this.#disconnect('idle');
  }

  async #ensure(): Promise<Client> {
    if (this.#stopped) throw new Error(`The MCP server '${this.definition.name}' was stopped.`);
    if (this.#client !== undefined) return this.#client;
    if (this.#connecting !== undefined) return this.#connecting;
    if (this.#state === 'failed' && this.#retryAt !== undefined && Date.now() < this.#retryAt) {
      throw new Error(
        `The MCP server '${this.definition.name}' failed (${this.#error ?? 'unknown error'}); it is retried at ${new Date(this.#retryAt).toISOString()}.`,
      );
    }
    this.#connecting = this.#connect().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #connect(): Promise<Client> {
    clearTimeout(this.#retryTimer);
    this.#retryAt = undefined;
    this.#state = 'connecting';
    const client = new Client(
      { name: 'youyou', version: this.#options.clientVersion },
      { capabilities: { roots: { listChanged: true } } },
    );
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: this.definition.roots.map((root) => ({ uri: `file://${root}`, name: root })),
    }));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (this.#client !== client) return;
      this.#listTools(client)
        .then(() => this.#logger.info({ tools: this.#tools.length }, 'MCP tool list changed'))
        .catch((error: unknown) =>
          this.#logger.warn({ err: error }, 'MCP tools could not be listed again after list_changed'),
        );
    });
    let transport: Transport;
    try {
      transport = await this.#transport();
      this.#stdio = transport instanceof ProcessGroupTransport ? transport : undefined;
      await client.connect(transport, { timeout: this.#options.connectTimeoutMs ?? 60_000 });
      await this.#listTools(client);
    } catch (error) {
      await client.close().catch(() => {});
      this.#fail(describe(error, transport!), true);
      throw new Error(`The MCP server '${this.definition.name}' could not start: ${this.#error ?? ''}`, {
        cause: error,
      });
    }
    if (this.#stopped) {
      await client.close().catch(() => {});
      throw new Error(`The MCP server '${this.definition.name}' was stopped.`);
    }
    this.#client = client;
    this.#state = 'connected';
    this.#error = null;
    this.#failures = 0;
    this.#connectedAt = Date.now();
    const version = client.getServerVersion();
    this.#serverInfo = version === undefined ? null : { name: version.name, version: version.version };
    this.#logger.info({ tools: this.#tools.length, server: this.#serverInfo }, 'MCP server connected');
    client.onclose = () => {
      if (this.#client !== client) return;
      this.#client = undefined;
      const reason = transport instanceof ProcessGroupTransport ? transport.exitReason : undefined;
      this.#fail(`the server closed the connection${reason === undefined ? '' : ` (${reason})`}`, false);
    };
    this.#touch();
    return client;
  }

  async #transport(): Promise<Transport> {
    const { transport, cwd } = this.definition;
    if (transport.type === 'stdio') {
      return new ProcessGroupTransport({
        command: transport.command,
        args: transport.args,
        env: { ...this.#options.processEnvironment?.(), ...transport.env },
        cwd: transport.cwd ?? cwd,
        onOversized: (oversized) => this.#oversized(oversized),
        onStderrLine: (line) => {
          this.#stderr.push(line.slice(0, 2000));
          if (this.#stderr.length > STDERR_LINES) this.#stderr.shift();
          this.#logger.info({ stream: 'stderr' }, line.slice(0, 2000));
        },
      });
    }
    const headers = { ...transport.headers, ...(await this.definition.secretHeaders()) };
    return new StreamableHTTPClientTransport(new URL(transport.url), { requestInit: { headers } });
  }

  async #listTools(client: Client): Promise<void> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined && tools.length < 10_000);
    this.#tools = tools;
    for (const listener of this.#toolListeners) listener();
  }

  #oversized({ bytes, id }: OversizedMessage): void {
    this.#logger.warn({ bytes, requestId: id ?? null }, 'MCP server sent a message over the size limit');
    this.#error = `the server sent a message of ${bytes} bytes, over the limit; it was dropped and the server restarted`;
    // With its id read, only the call it answered failed; the others finish first. Without it, a
    // call waits for a reply that will never come: restarting now fails every call in flight.
    if (id !== undefined && this.#inFlight > 0) this.#restartWhenIdle = true;
    else void this.#restart('an oversized message was dropped');
  }

  /** Stops the server process and starts it again (its calls in flight fail as closed). */
  async #restart(reason: string): Promise<void> {
    this.#restartWhenIdle = false;
    const client = this.#client;
    if (client === undefined) return;
    this.#client = undefined; // its onclose is then not a crash
    this.#connectedAt = undefined;
    this.#logger.warn({ reason }, 'MCP server restarted');
    await client
      .close()
      .catch((error: unknown) => this.#logger.warn({ err: error }, 'MCP server close failed'));
    if (this.#stopped || this.#connecting !== undefined) return;
    this.#restarts++;
    this.#connecting = this.#connect().finally(() => (this.#connecting = undefined));
    this.#connecting.catch(() => {}); // reported through the state, as a crash's restart is
  }

  /** A failed start or a crash: report it, then restart after a backoff while within the budget. */
  #fail(reason: string, starting: boolean): void {
    this.#state = 'failed';
    this.#error = reason;
    this.#failures++;
    this.#logger.warn(
      { reason, failures: this.#failures },
      starting ? 'MCP server failed to start' : 'MCP server crashed',
    );
    if (this.#stopped) return;
    const delay = Math.min(
      (this.#options.restartBaseMs ?? 1000) * 2 ** Math.min(this.#failures - 1, 16),
      MAX_BACKOFF_MS,
    );
    this.#retryAt = Date.now() + delay;
    if (this.#failures > (this.#options.maxRestarts ?? 5)) return; // the next use tries again
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      if (this.#stopped || this.#client !== undefined || this.#connecting !== undefined) return;
      this.#restarts++;
      this.#connecting = this.#connect().finally(() => (this.#connecting = undefined));
      this.#connecting.catch(() => {}); // reported through the state; the next failure reschedules
    }, delay);
    this.#retryTimer.unref();
  }

  #touch(): void {
    clearTimeout(this.#idleTimer);
    if (this.#client === undefined || this.#inFlight > 0) return;
    this.#idleTimer = setTimeout(() => {
      if (this.#inFlight === 0) {
        this.#logger.info({}, 'MCP server stopped after being idle');
        void this.#disconnect('idle');
      }
    }, this.definition.idleTimeoutMs);
    this.#idleTimer.unref();
  }

  async #disconnect(state: 'idle'): Promise<void> {
    const client = this.#client ?? (await this.#connecting?.catch(() => undefined));
    this.#client = undefined;
    if (this.#state !== 'failed' || this.#stopped) this.#state = state;
    this.#connectedAt = undefined;
    await client
      ?.close()
      .catch((error: unknown) => this.#logger.warn({ err: error }, 'MCP server close failed'));
  }
}

function describe(error: unknown, transport: Transport | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  const exit = transport instanceof ProcessGroupTransport ? transport.exitReason : undefined;
  return exit === undefined || message.includes(exit) ? message : `${message} (${exit})`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
