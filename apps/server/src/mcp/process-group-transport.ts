import { spawn, type ChildProcess } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_MESSAGE_BYTES, MessageFramer, type OversizedMessage } from './message-framing.ts';
import { descendantsOf, isRunning, signalAll } from './process-tree.ts';

export interface ProcessGroupTransportOptions {
  command: string;
  args: readonly string[];
  /** Added to the SDK's minimal inherited environment (HOME, PATH, SHELL, TERM, USER, LOGNAME). */
  env: Readonly<Record<string, string>>;
  cwd: string;
  /** Each line the server writes to stderr. */
  onStderrLine: (line: string) => void;
  /** How long the server has to exit after stdin closes and after SIGTERM. */
  graceMs?: number;
  /** The largest message taken from the server (default: the SDK's 10 MiB). */
  maxMessageBytes?: number;
  /**
   * A message over the limit was dropped. When its id could be read, the request it answers has
   * already been failed with `MCP_MESSAGE_TOO_LARGE`; otherwise that request is still waiting.
   */
  onOversized?: (message: OversizedMessage) => void;
}

/** The JSON-RPC error a dropped oversized reply becomes; `data.code` is the machine code. */
export const MESSAGE_TOO_LARGE = 'MCP_MESSAGE_TOO_LARGE';

/**
 * MCP's stdio transport that stops the server's whole process tree. The SDK's transport kills only
 * the process it started; servers are often launched through `npx`, `uvx` or a shell, whose
 * children would outlive it. Here stop is: note every descendant, close stdin, then SIGTERM and
 * SIGKILL to whatever of the tree is still there — no orphans. (Not a new process group: a new
 * session gets its own scheduling group on Linux, which tripled the latency of a call on a loaded
 * machine.) The framing (newline-delimited JSON-RPC) is the SDK's own.
 *
 * @example
 * const transport = new ProcessGroupTransport({ command: 'npx', args: ['-y', 'server'], env: {}, cwd, onStderrLine });
 * await client.connect(transport);
 */
export class ProcessGroupTransport implements Transport {
  readonly #options: ProcessGroupTransportOptions;
  readonly #framer: MessageFramer;
  #child: ChildProcess | undefined;
  #exit: Promise<void> | undefined;
  #stderrRest = '';
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(options: ProcessGroupTransportOptions) {
    this.#options = options;
    this.#framer = new MessageFramer(
      {
        message: (message) => this.onmessage?.(message),
        // A line that is not JSON-RPC (a server printing to stdout): reported, skipped.
        invalid: (error) => this.onerror?.(error),
        oversized: (oversized) => this.#dropOversized(oversized),
      },
      options.maxMessageBytes,
    );
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the process ended, for the status line ("exited with code 1", "killed by SIGKILL"). */
  exitReason: string | undefined;

  start(): Promise<void> {
    if (this.#child !== undefined) throw new Error('The transport is already started.');
    const { command, args, env, cwd } = this.#options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        env: { ...getDefaultEnvironment(), ...env },
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
      });
      this.#child = child;
      this.#exit = new Promise((settle) => child.once('close', () => settle()));
      child.once('error', (error) => {
        this.exitReason = error.message;
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('close', (code, signal) => {
        this.exitReason ??= signal === null ? `exited with code ${String(code)}` : `killed by ${signal}`;
        this.#flushStderr();
        this.#framer.clear(); // a message the process did not finish is dropped with it
        this.#child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.#framer.push(chunk));
      // A broken pipe is reported; 'close' follows and ends the connection. Unhandled, either
      // stream's 'error' would end the whole workbench.
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stderr?.on('error', (error) => this.onerror?.(error));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => {
        const lines = (this.#stderrRest + text).split(/\r?\n/);
        this.#stderrRest = lines.pop() ?? '';
        for (const line of lines) if (line !== '') this.#options.onStderrLine(line);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (stdin === undefined || stdin === null || stdin.destroyed) {
      return Promise.reject(new Error('The MCP server is not running.'));
    }
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.#child;
    const exit = this.#exit;
    if (child === undefined || exit === undefined || child.pid === undefined) return;
    const grace = this.#options.graceMs ?? 2000;
    const tree = await descendantsOf(child.pid);
    const exited = (ms: number): Promise<boolean> =>
      Promise.race([
        exit.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref()),
      ]);
    child.stdin?.end();
    if (!(await exited(grace))) {
      signalAll([child.pid, ...tree], 'SIGTERM');
      if (!(await exited(grace))) {
        signalAll([child.pid, ...tree], 'SIGKILL');
        await exited(grace);
      }
    }
    // The server is gone; whatever it started goes too.
    let left = tree.filter(isRunning);
    if (left.length > 0) {
      signalAll(left, 'SIGTERM');
      const deadline = Date.now() + grace;
      while ((left = left.filter(isRunning)).length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      signalAll(left, 'SIGKILL');
    }
    this.#framer.clear();
  }

  #dropOversized(oversized: OversizedMessage): void {
    const limit = this.#options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    if (oversized.id !== undefined) {
      this.onmessage?.({
        jsonrpc: '2.0',
        id: oversized.id,
        error: {
          code: -32603,
          message: `The MCP server's reply was ${mebibytes(oversized.bytes)}, over the ${mebibytes(limit)} limit; it was dropped.`,
          data: { code: MESSAGE_TOO_LARGE, bytes: oversized.bytes, limit },
        },
      });
    }
    this.#options.onOversized?.(oversized);
  }

  #flushStderr(): void {
    if (this.#stderrRest !== '') this.#options.onStderrLine(this.#stderrRest);
    this.#stderrRest = '';
  }
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
