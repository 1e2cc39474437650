/** A plugin's merged configuration (spec §3.5); every hook payload carries it. */
export type PluginConfig = Readonly<Record<string, unknown>>;

/** The lifecycle points a plugin can tap (spec §3.6). */
export const HOOK_NAMES = [
  'SessionStart',
  'SessionEnd',
  'TurnStart',
  'TurnEnd',
  'BeforeToolUse',
  'AfterToolUse',
  'BeforeCompact',
] as const;

export type HookName = (typeof HOOK_NAMES)[number];

/** Event-specific payload data of each hook; every handler also receives `pluginConfig`. */
export interface HookPayloads {
  SessionStart: { sessionId: string };
  SessionEnd: { sessionId: string; messageCount: number };
  TurnStart: {
    sessionId: string;
    turnId: string;
    /** The user's text for this turn (skill prompts excluded). */
    userInput: string;
    /** Sections appended to the system prompt for this turn (layer 10). */
    dynamicSections: readonly string[];
  };
  TurnEnd: { sessionId: string; turnId: string; assistantOutput: string };
  BeforeToolUse: {
    sessionId: string;
    turnId: string;
    callId: string;
    toolName: string;
    arguments: Readonly<Record<string, unknown>>;
  };
  AfterToolUse: {
    sessionId: string;
    turnId: string;
    callId: string;
    toolName: string;
    output: { content: string; isError: boolean };
    durationMs: number;
    success: boolean;
  };
  BeforeCompact: { sessionId: string; messageCount: number; estimatedTokens: number };
}

/**
 * The fields a handler may change with `ContinueWith`; other fields of its data are ignored.
 * Hooks missing here are observe-only.
 */
export interface HookMutableFields {
  TurnStart: 'userInput' | 'dynamicSections';
  BeforeToolUse: 'arguments';
  AfterToolUse: 'output';
}

export type HookData<H extends HookName> = H extends keyof HookMutableFields
  ? Partial<Pick<HookPayloads[H], HookMutableFields[H] & keyof HookPayloads[H]>>
  : Partial<HookPayloads[H]>;

/** What a handler sees: the event's payload plus its plugin's merged configuration. */
export type HookPayload<H extends HookName> = HookPayloads[H] & {
  hook: H;
  pluginConfig: Readonly<Record<string, unknown>>;
};

/** Continue / ContinueWith(data) / Abort(reason) (spec §3.6). */
export type HookResult<H extends HookName = HookName> =
  | { action: 'continue' }
  | { action: 'continue_with'; data: HookData<H> }
  | { action: 'abort'; reason: string };

export type HookHandler<H extends HookName> = (
  payload: HookPayload<H>,
) => HookResult<H> | void | Promise<HookResult<H> | void>;

/** Helpers that read like the spec: `return continueWith({ arguments })`. */
export const Continue = { action: 'continue' } as const satisfies HookResult;

/**
 * `ContinueWith(data)`: continue with changed data. Write `continueWith<'BeforeToolUse'>({...})` to
 * have the fields checked against the hook.
 */
export function continueWith<D extends object>(data: D): { action: 'continue_with'; data: D };
export function continueWith<H extends HookName>(data: HookData<H>): HookResult<H>;
export function continueWith(data: object): { action: 'continue_with'; data: object } {
  return { action: 'continue_with', data };
}

export function abort(reason: string): { action: 'abort'; reason: string } {
  return { action: 'abort', reason };
}
