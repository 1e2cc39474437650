import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { BoundedOutput, MAX_SCRIPT_OUTPUT_BYTES } from './bounded-output.ts';
import { resolveScriptCommand } from './command-resolution.ts';
import { signalProcessTree } from './process-tree.ts';
import type { ScriptCommand } from './script-command.ts';

/** Stderr kept per run for logs and warnings. */
const MAX_STDERR_BYTES = 64 * 1024;
/** After the script exits, how long its output pipes may stay open and silent (held by a background child). */
const PIPE_CLOSE_GRACE_MS = 200;

/**
 * One run of a script under the script protocol (spec §5.6).
 *
 * @example
 * const result = await runScript({
 *   command: { command: './count.sh', args: [] },
 *   componentDirectory: '/home/me/.youyou/tools/count',
 *   cwd: process.cwd(),
 *   home: '/home/me/.youyou',
 *   input: { call_id: 'c1', tool_name: 'count', arguments: { text: 'a b' } },
 *   timeoutMs: 5000,
 * });
 * if (result.outcome === 'exited' && result.exitCode === 0) console.log(result.stdout.text);
 */
export interface ScriptRunOptions {
  command: ScriptCommand;
  componentDirectory: string;
  /** The working directory when the command names none (the agent's cwd). */
  cwd: string;
  home: string;
  sessionId?: string | undefined;
  /** Serialised as JSON and written to stdin, which is then closed. */
  input: unknown;
  /** Kill the process tree after this long; no limit when absent. */
  timeoutMs?: number | undefined;
  /** Kill the process tree when aborted. */
  signal?: AbortSignal | undefined;
  maxOutputBytes?: number;
  /** Between SIGTERM to the group and SIGKILL to the group. */
  killGraceMs?: number;
  environment?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/**
 * How a script run ended.
 *
 * @example
 * if (result.outcome === 'timed_out') console.log('killed after', result.durationMs, 'ms');
 */
export type ScriptOutcome =
  /** The script ran and exited on its own; see `exitCode` / `exitSignal`. */
  | 'exited'
  | 'timed_out'
  | 'cancelled'
  /** It never started: missing file, not executable, bad working directory. */
  | 'failed_to_start';

/**
 * Everything a script run produced.
 *
 * @example
 * const { outcome, exitCode, stdout, stderr } = await runScript(options);
 */
export interface ScriptRunResult {
  outcome: ScriptOutcome;
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  stdout: ReturnType<BoundedOutput['collect']>;
  /** The first 64 KB of stderr. */
  stderr: string;
  durationMs: number;
  /** Why it did not start, for `failed_to_start`. */
  startError?: string;
  /** The executable actually spawned. */
  executable: string;
}

/**
 * Runs a script without a shell: JSON on stdin (then closed), stdout capped at 1 MB as UTF-8,
 * stderr kept apart, `YOUYOU_HOME` / `YOUYOU_COMPONENT_DIR` / `YOUYOU_SESSION_ID` in its
 * environment. A timeout or an abort kills the whole process tree. Never throws for script
 * behaviour; the caller maps the outcome.
 *
 * @example
 * const result = await runScript({ command: { command: 'cat', args: [] }, componentDirectory: dir,
 *   cwd: dir, home, input: { hello: 'world' } });
 * result.stdout.text; // '{"hello":"world"}\n'
 */
export function runScript(options: ScriptRunOptions): Promise<ScriptRunResult> {
  const platform = options.platform ?? process.platform;
  const environment = options.environment ?? process.env;
  const resolved = resolveScriptCommand({
    command: options.command.command,
    args: options.command.args,
    componentDirectory: options.componentDirectory,
    platform,
    comSpec: environment['ComSpec'] ?? environment['COMSPEC'],
    exists: existsSync,
  });
  const startedAt = performance.now();
  const stdout = new BoundedOutput(options.maxOutputBytes ?? MAX_SCRIPT_OUTPUT_BYTES);
  const stderr = new BoundedOutput(MAX_STDERR_BYTES);
  const finish = (
    outcome: ScriptOutcome,
    exitCode: number | null,
    exitSignal: NodeJS.Signals | null,
    startError?: string,
  ): ScriptRunResult => {
    const result: ScriptRunResult = {
      outcome,
      exitCode,
      exitSignal,
      stdout: stdout.collect(),
      stderr: stderr.tail(MAX_STDERR_BYTES),
      durationMs: performance.now() - startedAt,
      executable: resolved.file,
    };
    if (startError !== undefined) result.startError = startError;
    return result;
  };

  const workingDirectory =
    options.command.workingDirectory === undefined
      ? options.cwd
      : resolve(options.componentDirectory, options.command.workingDirectory);
  if (!isDirectory(workingDirectory)) {
    return Promise.resolve(
      finish('failed_to_start', null, null, `the working directory ${workingDirectory} does not exist`),
    );
  }
  if (options.signal?.aborted === true) return Promise.resolve(finish('cancelled', null, null));

  const childEnvironment: NodeJS.ProcessEnv = {
    ...environment,
    YOUYOU_HOME: options.home,
    YOUYOU_COMPONENT_DIR: options.componentDirectory,
  };
  if (options.sessionId === undefined) delete childEnvironment['YOUYOU_SESSION_ID'];
  else childEnvironment['YOUYOU_SESSION_ID'] = options.sessionId;

  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(resolved.file, resolved.args, {
      cwd: workingDirectory,
      env: childEnvironment,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: platform !== 'win32',
      windowsHide: true,
      windowsVerbatimArguments: resolved.windowsVerbatimArguments,
      shell: false,
    });
  } catch (error) {
    // spawn throws synchronously for arguments it cannot pass (a NUL byte, an invalid option).
    const message = error instanceof Error ? error.message : String(error);
    return Promise.resolve(
      finish('failed_to_start', null, null, `the command ${resolved.file} could not start: ${message}`),
    );
  }
  return new Promise((resolvePromise) => {
    let stopReason: 'timed_out' | 'cancelled' | undefined;
    let settled = false;
    let exited = false;
    let killTimer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;

    const cleanUp = (): void => {
      clearTimeout(timeoutTimer);
      clearTimeout(killTimer);
      clearTimeout(graceTimer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    const settle = (result: ScriptRunResult): void => {
      if (settled) return;
      settled = true;
      cleanUp();
      resolvePromise(result);
    };
    // Set once the script exited while something it started still holds the output pipes.
    let finishAfterExit: (() => void) | undefined;
    const stop = (reason: 'timed_out' | 'cancelled'): void => {
      if (stopReason !== undefined || settled) return;
      if (exited) {
        // The script is done; only a leftover child keeps the pipes busy. End it, keep the result.
        finishAfterExit?.();
        return;
      }
      stopReason = reason;
      signalProcessTree(child, 'SIGTERM', platform);
      // SIGKILL the group even if the leader exits at once: a grandchild may ignore SIGTERM.
      killTimer = setTimeout(() => signalProcessTree(child, 'SIGKILL', platform), options.killGraceMs ?? 500);
    };
    const onAbort = (): void => stop('cancelled');
    const timeoutTimer =
      options.timeoutMs === undefined ? undefined : setTimeout(() => stop('timed_out'), options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });

    // After the script exits, output still arriving (a large write draining) postpones the grace.
    let armGrace: (() => void) | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout.push(chunk);
      armGrace?.();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
      armGrace?.();
    });
    // A script that exits without reading stdin makes our write fail with EPIPE: that is fine.
    child.stdin.on('error', () => undefined);
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined) {
        settle(finish('failed_to_start', null, null, describeSpawnError(error, resolved.file)));
      }
    });
    child.on('exit', (code, signal) => {
      exited = true;
      const complete = (): void => {
        if (stopReason !== undefined) {
          // Make sure nothing of the tree survives before reporting the stop.
          signalProcessTree(child, 'SIGKILL', platform);
          settle(finish(stopReason, code, signal));
        } else {
          settle(finish('exited', code, signal));
        }
      };
      if (child.stdout.readableEnded && child.stderr.readableEnded) complete();
      else {
        child.once('close', complete);
        finishAfterExit = () => {
          // A background process still holds our pipes: the run is over, end it and move on.
          signalProcessTree(child, 'SIGKILL', platform);
          child.stdout.destroy();
          child.stderr.destroy();
          complete();
        };
        armGrace = () => {
          clearTimeout(graceTimer);
          graceTimer = setTimeout(() => finishAfterExit?.(), PIPE_CLOSE_GRACE_MS);
        };
        armGrace();
      }
    });
    if (child.pid !== undefined) {
      child.stdin.end(`${JSON.stringify(options.input ?? null)}\n`);
    }
  });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function describeSpawnError(error: NodeJS.ErrnoException, file: string): string {
  switch (error.code) {
    case 'ENOENT':
      return `the command ${file} was not found`;
    case 'EACCES':
      return `the command ${file} is not executable (chmod +x it, and give it a #! line)`;
    case 'ENOEXEC':
      return `the command ${file} has no interpreter line: start it with #!/bin/sh or similar`;
    default:
      return `the command ${file} could not start: ${error.message}`;
  }
}
