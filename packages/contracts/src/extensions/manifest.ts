import { z } from 'zod';
import { CommandParameterSchema, COMMAND_NAME_PATTERN } from '../commands/index.ts';
import { LocalizedTextSchema, SettingEffectSchema, SettingValueSchemaSchema } from '../settings/index.ts';
import { SemverSchema } from './api-version.ts';

/** An extension's id: lowercase words joined by `-` (it names its folder and its source tag). */
export const EXTENSION_ID_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
export const ExtensionIdSchema = z
  .string()
  .regex(EXTENSION_ID_PATTERN, 'lowercase letters, digits and -')
  .max(64);

/** The file at the root of every extension. */
export const MANIFEST_FILE = 'extension.json';

/** A path inside the extension folder: relative, forward slashes, never leaving it. */
export const AssetPathSchema = z
  .string()
  .min(1)
  .max(300)
  .regex(/^(?!\/)(?!.*\\)(?!.*(^|\/)\.\.(\/|$)).+$/, 'a relative path inside the extension, without ..');

/** A host name an extension may reach; `*.example.com` also allows every sub-domain. */
export const NetworkDomainSchema = z
  .string()
  .max(253)
  .regex(
    /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/,
    'a lower-case host name',
  );

/** What an extension may read (shown before install, recorded with it). */
export const DATA_SCOPES = ['conversation', 'project', 'knowledge', 'settings'] as const;
export const DataScopeSchema = z.enum(DATA_SCOPES);

/**
 * The permissions an extension asks for (spec §4.6 `requires`): the hosts its HTTP tools may
 * reach (enforced on every request and redirect), whether its workflows call tools, and what data
 * it reads. Shown before install and recorded; trust model v1 is "the user installs and reviews".
 */
export const ExtensionPermissionsSchema = z
  .object({
    network: z
      .object({ domains: z.array(NetworkDomainSchema).max(50).default([]) })
      .strict()
      .default({ domains: [] }),
    /** Tools the extension's workflows may call besides its own (`*` any enabled tool). */
    tools: z
      .object({ execute: z.array(z.string().min(1).max(128)).max(100).default([]) })
      .strict()
      .default({ execute: [] }),
    data: z
      .object({ scopes: z.array(DataScopeSchema).default([]) })
      .strict()
      .default({ scopes: [] }),
  })
  .strict();
export type ExtensionPermissions = z.infer<typeof ExtensionPermissionsSchema>;

/**
 * A settings item the extension declares (spec §4.6 `settings`): it appears in the settings
 * center in the extension's section, under the key `<id with _ for ->.<key>`. A `secret` one is
 * stored apart and write-only; HTTP tools reference it as `{{secret:key}}`.
 */
export const ExtensionSettingItemSchema = z
  .object({
    key: z.string().regex(/^[a-z][a-z0-9_]{0,59}$/),
    label: LocalizedTextSchema,
    help: LocalizedTextSchema,
    schema: SettingValueSchemaSchema,
    effect: SettingEffectSchema.default('hot'),
    secret: z.boolean().default(false),
  })
  .strict();
export type ExtensionSettingItem = z.infer<typeof ExtensionSettingItemSchema>;

/** A knowledge pack: a folder of documents indexed under the extension's source tag. */
export const KnowledgePackSchema = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/),
    title: z.string().min(1).max(200),
    path: AssetPathSchema,
  })
  .strict();
export type KnowledgePack = z.infer<typeof KnowledgePackSchema>;

/**
 * The capabilities an extension provides, as files inside it (spec §4.6 layout). Every listed
 * file must exist and validate, or the whole extension is refused (fail-closed).
 */
export const ExtensionProvidesSchema = z
  .object({
    /** Declarative HTTP tools (`DeclarativeHttpTool`). */
    tools: z.array(AssetPathSchema).default([]),
    /** `/` commands (`ExtensionCommand`). */
    commands: z.array(AssetPathSchema).default([]),
    /** Right-column panels, conversation cards and HITL forms (`UiAsset`, UI-schema vocabulary). */
    panels: z.array(AssetPathSchema).default([]),
    cards: z.array(AssetPathSchema).default([]),
    forms: z.array(AssetPathSchema).default([]),
    workflows: z.array(AssetPathSchema).default([]),
    intents: z.array(AssetPathSchema).default([]),
    knowledge: z.array(KnowledgePackSchema).default([]),
    /** Document parsers (`ExtensionParser`): scripts run as child processes, one per file. */
    parsers: z.array(AssetPathSchema).default([]),
    /** Prompt templates (`.md`, the file name without `.md` is the prompt's id). */
    prompts: z.array(AssetPathSchema).default([]),
    /** Agent profile templates (`ProfileInput` JSON; the file name without `.json` is the template's id). */
    profile_templates: z.array(AssetPathSchema).default([]),
    /**
     * Document templates (`.md` with `{{name}}` placeholders and optional front matter `title`,
     * `description`, `format: markdown | docx`): the agent creates an artifact from one.
     */
    templates: z.array(AssetPathSchema).default([]),
    /** Macros (`MacroInput` JSON). */
    macros: z.array(AssetPathSchema).default([]),
    /**
     * A folder laid out like `~/.youyou` (`tools/`, `skills/`, `plugins/`) whose agent-framework
     * components join every agent. Code: loaded when the server starts, not hot-reloaded.
     */
    agent: AssetPathSchema.optional(),
  })
  .strict();
export type ExtensionProvides = z.infer<typeof ExtensionProvidesSchema>;

/**
 * `extension.json` (spec §4.6): who the extension is, which extension API it was written for, what
 * it provides, what it needs, and its settings. Unknown top-level fields are refused (a typo must
 * not pass silently).
 *
 * @example
 * const manifest: ExtensionManifestInput = {
 *   id: 'example', version: '1.0.0', apiVersion: '1.0.0',
 *   name: { en: 'Example', 'zh-CN': '示例' }, description: { en: 'Shows every kind', 'zh-CN': '演示每一类' },
 *   provides: { tools: ['tools/weather.json'] },
 *   requires: { network: { domains: ['api.example.com'] } },
 * };
 */
export const ExtensionManifestSchema = z
  .object({
    $schema: z.string().optional(),
    id: ExtensionIdSchema,
    version: SemverSchema,
    /** The extension API version it was written for; the host checks its compatibility window. */
    apiVersion: SemverSchema,
    name: LocalizedTextSchema,
    description: LocalizedTextSchema,
    author: z.string().max(200).optional(),
    homepage: z.string().url().max(500).optional(),
    provides: ExtensionProvidesSchema.default(ExtensionProvidesSchema.parse({})),
    requires: ExtensionPermissionsSchema.default(ExtensionPermissionsSchema.parse({})),
    settings: z.array(ExtensionSettingItemSchema).max(100).default([]),
  })
  .strict();
export type ExtensionManifest = z.infer<typeof ExtensionManifestSchema>;
export type ExtensionManifestInput = z.input<typeof ExtensionManifestSchema>;

/**
 * A `/` command an extension provides: it starts one of its workflows (the parameters become
 * variables) or expands a prompt template into the composer.
 *
 * @example
 * const report: ExtensionCommand = { name: 'city-report', description: { en: 'Report on a city', 'zh-CN': '城市报告' },
 *   parameters: [{ name: 'city', type: 'string', required: true }], workflow: 'city-report' };
 */
export const ExtensionCommandSchema = z
  .object({
    $schema: z.string().optional(),
    name: z.string().regex(COMMAND_NAME_PATTERN),
    description: LocalizedTextSchema,
    parameters: z.array(CommandParameterSchema).max(20).default([]),
    workflow: z.string().max(64).optional(),
    template: z.string().min(1).max(50_000).optional(),
  })
  .strict()
  .refine((command) => (command.workflow === undefined) !== (command.template === undefined), {
    message: 'a command has exactly one of a workflow or a template',
    path: ['workflow'],
  });
export type ExtensionCommand = z.infer<typeof ExtensionCommandSchema>;

/**
 * A panel, card or form an extension provides: an id, a title, and a document in the UI-schema
 * vocabulary (`docs/ui-schema.md`), checked when the extension loads.
 */
export const UiAssetSchema = z
  .object({
    $schema: z.string().optional(),
    id: z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/),
    title: LocalizedTextSchema,
    schema: z.unknown(),
  })
  .strict();
export type UiAsset = z.infer<typeof UiAssetSchema>;

/**
 * The settings-key prefix of an extension: its id with `_` for `-`.
 *
 * @example
 * extensionSettingKey('city-tools', 'api_key'); // 'city_tools.api_key'
 */
export function extensionSettingKey(extensionId: string, key: string): string {
  return `${extensionId.replaceAll('-', '_')}.${key}`;
}
