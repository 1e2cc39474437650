import type { ComponentSource, LayerComponents, ToolHandler } from '@youyou/agent';
import {
  TOOL_SOURCES,
  toolDecision,
  type ToolInfo,
  type ToolLists,
  type ToolPolicy,
  type ToolSettingsPatch,
  type ToolSource,
} from '@youyou/contracts';
import type { SettingsRepository } from '../storage/index.ts';

/** The settings key (user scope) of per-tool enablement and policy. */
export const TOOL_SETTINGS_KEY = 'tools';

type StoredToolSettings = Record<string, { enabled?: boolean; policy?: ToolPolicy }>;

interface KnownTool {
  name: string;
  description: string;
  mutating: boolean;
  source: ToolSource;
  /** Overrides the read-only/mutating default. */
  defaultPolicy?: ToolPolicy;
}

/**
 * The tool registry's settings and knowledge (spec §4.3 toolreg, §4.7, §4.8): every tool the
 * workbench has seen — built in, programmatic, or from a component folder — with its description
 * and mutating flag, whether it is enabled, and its confirmation policy (`auto` for read-only
 * tools and `confirm` for mutating ones unless the user set another).
 *
 * @example
 * await catalog.update('read_file', { enabled: false });
 * await catalog.policyOf('write_file'); // 'confirm'
 */
export class ToolCatalog {
  readonly #settings: SettingsRepository;
  readonly #known = new Map<string, KnownTool>();
  readonly #retired = new Set<string>();
  /** Tool handlers a tagged source loaded, with the source they are listed under. */
  readonly #origins = new WeakMap<object, ToolSource>();

  readonly #mutatingDefault: ToolPolicy;
  /** Whether a whole source is switched on (the unified registry's per-source switch). */
  #sourceOn: (source: ToolSource) => boolean = () => true;
  /** The tool lists of a conversation's profile (allow, deny, confirm). */
  readonly #profileLists: (conversationId: string) => Promise<ToolLists | undefined>;

  /**
   * `mutatingDefault` is the policy of mutating tools nobody set one for: `confirm` (spec §4.8);
   * test harnesses and unattended automation may choose `auto`. `profileLists` finds a
   * conversation's profile tool lists, for `policyOf` (none: no profile lists apply).
   */
  constructor(
    settings: SettingsRepository,
    options: {
      mutatingDefault?: ToolPolicy;
      profileLists?: (conversationId: string) => Promise<ToolLists | undefined>;
    } = {},
  ) {
    this.#settings = settings;
    this.#mutatingDefault = options.mutatingDefault ?? 'confirm';
    this.#profileLists = options.profileLists ?? (async () => undefined);
  }

  /** Records a tool (built in, or met while loading component folders). */
  remember(
    tool: Pick<ToolHandler, 'name' | 'description' | 'mutating'>,
    source: ToolSource,
    defaultPolicy?: ToolPolicy,
  ): void {
    this.#retired.delete(tool.name);
    this.#known.set(tool.name, {
      name: tool.name,
      description: tool.description,
      mutating: tool.mutating,
      source,
      ...(defaultPolicy === undefined ? {} : { defaultPolicy }),
    });
  }

  /** Installs the unified registry's per-source switch: tools of a source switched off are disabled. */
  setSourceSwitch(sourceOn: (source: ToolSource) => boolean): void {
    this.#sourceOn = sourceOn;
  }

  /** Whether a tool is enabled, given the stored settings: its own switch and its source's. */
  enabledIn(stored: StoredToolSettings, name: string): boolean {
    if (stored[name]?.enabled === false) return false;
    const source = this.#known.get(name)?.source;
    return source === undefined || this.#sourceOn(source);
  }

  /**
   * Forgets a tool that is gone (a disabled or uninstalled extension's); its stored settings stay.
   * An agent built before may still call it: such a call passes the policy (`auto`) so that the
   * tool itself answers with its stable code (EXTENSION_REMOVED) instead of a confirmation card.
   */
  forget(name: string): void {
    if (this.#known.delete(name)) this.#retired.add(name);
  }

  known(name: string): KnownTool | undefined {
    return this.#known.get(name);
  }

  async stored(): Promise<StoredToolSettings> {
    return (await this.#settings.get<StoredToolSettings>('user', '', TOOL_SETTINGS_KEY)) ?? {};
  }

  /** Changes when any tool setting changes: agents are rebuilt with the new tool set. */
  async fingerprint(): Promise<string> {
    return JSON.stringify(await this.stored());
  }

  async isEnabled(name: string): Promise<boolean> {
    return this.enabledIn(await this.stored(), name);
  }

  defaultPolicyOf(name: string): ToolPolicy {
    const known = this.#known.get(name);
    if (known?.defaultPolicy !== undefined) return known.defaultPolicy;
    // Unknown tools are treated as mutating: confirmation is the safe default.
    return known?.mutating === false ? 'auto' : this.#mutatingDefault;
  }

  /**
   * The effective policy of a call, in this order (docs/tools.md): deny — the tool disabled in
   * settings, denied by the conversation's profile, or set to `deny` — then the profile's confirm
   * list (whatever the tool's mutating flag: the user listed it to be asked), then the tool's own
   * policy in settings, then the default (`auto` read-only, `confirm` mutating).
   * `listed` says the profile's confirm list decided.
   */
  async policyOf(
    name: string,
    conversationId?: string,
  ): Promise<{ policy: ToolPolicy; disabled: boolean; listed: boolean }> {
    if (this.#retired.has(name) && !this.#known.has(name))
      return { policy: 'auto', disabled: false, listed: false };
    const all = await this.stored();
    if (!this.enabledIn(all, name)) return { policy: 'deny', disabled: true, listed: false };
    const lists = conversationId === undefined ? undefined : await this.#profileLists(conversationId);
    const profileDecision = lists === undefined ? 'auto' : toolDecision(lists, name);
    const own = all[name]?.policy;
    if (profileDecision === 'deny' || own === 'deny')
      return { policy: 'deny', disabled: false, listed: false };
    if (profileDecision === 'confirm') return { policy: 'confirm', disabled: false, listed: true };
    return { policy: own ?? this.defaultPolicyOf(name), disabled: false, listed: false };
  }

  async list(): Promise<ToolInfo[]> {
    const stored = await this.stored();
    return [...this.#known.values()]
      .sort(
        (a, b) =>
          TOOL_SOURCES.indexOf(a.source) - TOOL_SOURCES.indexOf(b.source) || a.name.localeCompare(b.name),
      )
      .map((tool) => ({
        name: tool.name,
        description: tool.description,
        mutating: tool.mutating,
        source: tool.source,
        enabled: this.enabledIn(stored, tool.name),
        policy: stored[tool.name]?.policy ?? this.defaultPolicyOf(tool.name),
        default_policy: this.defaultPolicyOf(tool.name),
      }));
  }

  async update(name: string, patch: ToolSettingsPatch): Promise<void> {
    const stored = await this.stored();
    const current = { ...stored[name] };
    if (patch.enabled === null || patch.enabled === true) delete current.enabled;
    else if (patch.enabled === false) current.enabled = false;
    if (patch.policy === null) delete current.policy;
    else if (patch.policy !== undefined) current.policy = patch.policy;
    if (Object.keys(current).length === 0) delete stored[name];
    else stored[name] = current;
    await this.#settings.set('user', '', TOOL_SETTINGS_KEY, stored);
  }

  /**
   * Marks every tool `inner` loads as coming from `source` (MCP servers' tools are `mcp`), whatever
   * layer it is loaded into; `wrapSource` then records them so.
   */
  tagSource(inner: ComponentSource, source: ToolSource): ComponentSource {
    return {
      load: async (options) => {
        const loaded = await inner.load(options);
        for (const layer of [loaded.global, loaded.project])
          for (const { tool } of layer.tools) this.#origins.set(tool, source);
        return loaded;
      },
    };
  }

  /**
   * Wraps the component-folder source: tools disabled in settings are left out, and every tool is
   * remembered with its mutating flag, so confirmation and the settings page know it.
   */
  wrapSource(inner: ComponentSource): ComponentSource {
    return {
      load: async (options) => {
        const loaded = await inner.load(options);
        const stored = await this.stored();
        const keep = (layer: LayerComponents, source: ToolSource): LayerComponents => {
          for (const { tool } of layer.tools) this.remember(tool, this.#origins.get(tool) ?? source);
          return { ...layer, tools: layer.tools.filter(({ tool }) => this.enabledIn(stored, tool.name)) };
        };
        return { ...loaded, global: keep(loaded.global, 'global'), project: keep(loaded.project, 'project') };
      },
    };
  }
}
