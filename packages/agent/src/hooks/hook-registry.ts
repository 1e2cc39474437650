import type { Logger } from '../logging/index.ts';
import type {
  HookHandler,
  HookName,
  HookPayload,
  HookPayloads,
  HookResult,
  PluginConfig,
} from './hook-types.ts';

/** One handler a plugin put on a hook, with the configuration its payloads carry. */
export interface HookTapRecord {
  hook: HookName;
  pluginId: string;
  pluginConfig: PluginConfig;
  handler: HookHandler<HookName>;
}

/** Fields a `ContinueWith` may replace, per hook; anything else a handler returns is ignored. */
const MUTABLE_FIELDS: { readonly [H in HookName]: readonly string[] } = {
  SessionStart: [],
  SessionEnd: [],
  TurnStart: ['userInput', 'dynamicSections'],
  TurnEnd: [],
  BeforeToolUse: ['arguments'],
  AfterToolUse: ['output'],
  BeforeCompact: [],
};

export interface HookOutcome<H extends HookName> {
  /** The payload after every `ContinueWith` in order. */
  data: HookPayloads[H];
  /** Set when a handler aborted; later handlers did not run. */
  aborted?: { reason: string; pluginId: string };
}

/**
 * Ordered hook handlers with waterfall (`ContinueWith`) and bail (`Abort`) semantics (spec §3.6).
 * Handlers run in the order given, which is plugin registration order; a throwing handler is
 * logged and treated as Continue.
 */
export class HookRegistry {
  readonly #taps = new Map<HookName, HookTapRecord[]>();
  readonly #logger: Logger;

  constructor(taps: readonly HookTapRecord[], logger: Logger) {
    for (const tap of taps) {
      let list = this.#taps.get(tap.hook);
      if (list === undefined) this.#taps.set(tap.hook, (list = []));
      list.push(tap);
    }
    this.#logger = logger;
  }

  has(hook: HookName): boolean {
    return this.#taps.has(hook);
  }

  async run<H extends HookName>(hook: H, payload: HookPayloads[H]): Promise<HookOutcome<H>> {
    const taps = this.#taps.get(hook);
    if (taps === undefined) return { data: payload };
    let data = payload;
    for (const tap of taps) {
      let result: HookResult | void;
      try {
        result = await tap.handler({
          ...isolated(hook, data),
          hook,
          pluginConfig: tap.pluginConfig,
        } as HookPayload<HookName>);
      } catch (error) {
        this.#logger.warn(
          { hook, pluginId: tap.pluginId, error: String(error) },
          'hook handler threw; continuing',
        );
        continue;
      }
      if (result === undefined || result === null || result.action === 'continue') continue;
      if (result.action === 'abort') {
        return { data, aborted: { reason: String(result.reason), pluginId: tap.pluginId } };
      }
      if (result.action === 'continue_with' && typeof result.data === 'object' && result.data !== null) {
        data = applyChanges(hook, data, result.data);
      }
    }
    return { data };
  }
}

/**
 * The payload a handler sees, with its own copies of the changeable fields: changing them in place
 * (say, deleting a secret argument before logging it) must not reach the tool or the next handler.
 * Only `ContinueWith` changes data.
 */
function isolated<H extends HookName>(hook: H, data: HookPayloads[H]): HookPayloads[H] {
  const fields = MUTABLE_FIELDS[hook];
  if (fields.length === 0) return data;
  const copy: Record<string, unknown> = { ...data };
  for (const field of fields) {
    const value = copy[field];
    if (typeof value === 'object' && value !== null) copy[field] = structuredClone(value);
  }
  return copy as HookPayloads[H];
}

function applyChanges<H extends HookName>(hook: H, data: HookPayloads[H], changes: object): HookPayloads[H] {
  const next: Record<string, unknown> = { ...data };
  for (const field of MUTABLE_FIELDS[hook]) {
    if (Object.hasOwn(changes, field)) next[field] = (changes as Record<string, unknown>)[field];
  }
  return next as HookPayloads[H];
}
