import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ImageBlock } from '../content/index.ts';

/** The arguments the dispatcher hands a tool, already parsed and checked against its schema. */
export interface ToolInput {
  callId: string;
  toolName: string;
  arguments: Readonly<Record<string, unknown>>;
}

/**
 * What a tool returns (spec §3.3). Only programmatic tools may return `metadata` and `images`.
 * `content` is always the text the model reads; `images` ride along for models whose
 * capabilities say `vision` (a screenshot, a chart) and are left out for the others, so `content`
 * should say in words that an image is there (decision 0046).
 */
export interface ToolOutput {
  content: string;
  isError?: boolean;
  metadata?: Readonly<Record<string, unknown>>;
  /** Images for the model, sent in the turn that produced them (decision 0046). */
  images?: readonly ImageBlock[];
}

export interface ToolContext {
  /**
   * Aborted when the call must stop now: it timed out (TOOL_TIMEOUT, spec §4.4). A tool that runs
   * a process kills it. A cancelled turn does not abort this signal (see `cancelSignal`).
   */
  signal: AbortSignal;
  /**
   * Aborted when the user cancels the turn. The dispatcher still waits for a running tool and
   * records its result (spec §6.2: running tools are not interrupted), so a tool may use this only
   * to wrap up early at a point where stopping leaves nothing half done.
   */
  cancelSignal: AbortSignal;
  sessionId: string;
  turnId: string;
  /** The agent's working directory. */
  cwd: string;
  /** The YouYou home (`~/.youyou` unless overridden). */
  home: string;
}

/**
 * A capability the model may call (spec §3.3).
 *
 * @example
 * const clock: ToolHandler = {
 *   name: 'current_time',
 *   description: 'Returns the current time as an ISO 8601 string.',
 *   parameters: { type: 'object', properties: {}, additionalProperties: false },
 *   mutating: false,
 *   execute: () => ({ content: new Date().toISOString() }),
 * };
 */
export interface ToolHandler {
  readonly name: string;
  readonly description: string;
  /** A JSON Schema for the arguments object: what the model sees, and (without `schema`) the check. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /**
   * A Standard Schema (zod, valibot, arktype) that checks the arguments instead of `parameters`;
   * `execute` receives its output. `defineTool` sets it.
   */
  readonly schema?: StandardSchemaV1<unknown, Record<string, unknown>>;
  /** True when the tool has side effects; one mutating call makes its whole batch serial. */
  readonly mutating: boolean;
  /** Overrides `toolTimeoutMs` for this tool. */
  readonly timeoutMs?: number;
  execute(input: ToolInput, context: ToolContext): ToolOutput | Promise<ToolOutput>;
}
