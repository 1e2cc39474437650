import { z } from 'zod';
import { MacroInputSchema, SnippetInputSchema } from '../commands/index.ts';
import {
  McpHttpTransportSchema,
  McpScopeSchema,
  McpServerNameSchema,
  McpStdioTransportSchema,
} from '../mcp/index.ts';
import { MEMORY_CONTENT_MAX, MemoryScopeSchema, MemoryTypeSchema } from '../memory/index.ts';
import { ProfileInputSchema } from '../profiles/index.ts';

/**
 * The setup bundle (spec §4.16 "画像/设置/模板/记忆打包迁移"): one file that moves a user's whole
 * setup to another workbench — user settings (config.yaml values included), profiles, macros and
 * snippets, memories, MCP servers, extensions and projects. Secrets never travel: secret settings
 * and secret header values are left out, and a stdio server's environment travels by name only
 * (its values are often keys); the import says what each item still needs.
 */
export const SETUP_BUNDLE_FORMAT = 'youyou-setup-bundle';

/** What a project is known by in a bundle: its name (ids differ between workbenches). */
const ProjectNameSchema = z.string().trim().min(1).max(200);

export const BundleMcpServerSchema = z.object({
  name: McpServerNameSchema,
  scope: McpScopeSchema,
  /** For a project server: the project's name. */
  project: ProjectNameSchema.nullable(),
  enabled: z.boolean(),
  transport: z.discriminatedUnion('type', [
    McpStdioTransportSchema.omit({ env: true }).extend({
      /** The environment's names; the values stay behind (often keys). */
      env_names: z.array(z.string()).max(256).default([]),
    }),
    McpHttpTransportSchema,
  ]),
  /** Headers whose values are secrets: names only. */
  secret_header_names: z.array(z.string()).max(64).default([]),
  tool_timeout_ms: z.number().int().nullable(),
  idle_timeout_ms: z.number().int().nullable(),
});
export type BundleMcpServer = z.infer<typeof BundleMcpServerSchema>;

export const BundleMemorySchema = z.object({
  scope: MemoryScopeSchema,
  project: ProjectNameSchema.nullable(),
  type: MemoryTypeSchema,
  content: z.string().min(1).max(MEMORY_CONTENT_MAX),
  confidence: z.number().min(0).max(1),
  tags: z.array(z.string()).max(20),
  expires_at: z.string().nullable(),
});
export type BundleMemory = z.infer<typeof BundleMemorySchema>;

/**
 * `GET /api/setup-bundle` writes it; `POST /api/setup-bundle/preview` and
 * `POST /api/setup-bundle/import` read it.
 *
 * @example
 * const bundle = SetupBundleSchema.parse(JSON.parse(text));
 */
export const SetupBundleSchema = z
  .object({
    format: z.literal(SETUP_BUNDLE_FORMAT),
    version: z.literal(1),
    exported_at: z.string(),
    /** The user layer's values of every registered, non-secret setting (config.yaml's included). */
    settings: z.record(z.string(), z.unknown()),
    profiles: z.array(ProfileInputSchema).max(500),
    snippets: z.array(SnippetInputSchema).max(5_000),
    macros: z.array(MacroInputSchema).max(1_000),
    memories: z.array(BundleMemorySchema).max(100_000),
    mcp_servers: z.array(BundleMcpServerSchema).max(500),
    /** Installed extensions and whether they are on; their code is installed on the other side. */
    extensions: z
      .array(z.object({ id: z.string().min(1), version: z.string(), enabled: z.boolean() }))
      .max(500),
    projects: z.array(z.object({ name: ProjectNameSchema, directory: z.string().nullable() })).max(1_000),
  })
  .meta({ id: 'SetupBundle' });
export type SetupBundle = z.infer<typeof SetupBundleSchema>;

export const SETUP_BUNDLE_SECTIONS = [
  'settings',
  'profiles',
  'snippets',
  'macros',
  'memories',
  'mcp_servers',
  'extensions',
  'projects',
] as const;
export type SetupBundleSection = (typeof SETUP_BUNDLE_SECTIONS)[number];

/** What importing does with one item: creates it, overwrites one of the same name, or leaves it. */
export const SETUP_IMPORT_ACTIONS = ['create', 'overwrite', 'skip'] as const;
export type SetupImportAction = (typeof SETUP_IMPORT_ACTIONS)[number];

export const SetupImportItemSchema = z.object({
  section: z.enum(SETUP_BUNDLE_SECTIONS),
  /** The setting key, profile or server name, snippet title, memory text … */
  name: z.string(),
  action: z.enum(SETUP_IMPORT_ACTIONS),
  /** Why it is skipped, or what it still needs here (a secret, an extension's install). */
  note: z.string().optional(),
});
export type SetupImportItem = z.infer<typeof SetupImportItemSchema>;

/**
 * The preview (nothing written) and the import's report (written): every item of the bundle with
 * what happens to it, and the counts per action.
 */
export const SetupImportPlanSchema = z
  .object({
    applied: z.boolean(),
    items: z.array(SetupImportItemSchema),
    counts: z.object({ create: z.number().int(), overwrite: z.number().int(), skip: z.number().int() }),
  })
  .meta({ id: 'SetupImportPlan' });
export type SetupImportPlan = z.infer<typeof SetupImportPlanSchema>;
