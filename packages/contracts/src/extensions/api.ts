import { z } from 'zod';
import { ExtensionManifestSchema, ExtensionPermissionsSchema } from './manifest.ts';

/** One reason an extension (or an edit of one of its files) was refused. */
export const ExtensionProblemSchema = z.object({
  /** The file inside the extension (`extension.json`, `tools/weather.json`), or `archive`. */
  path: z.string(),
  /** Where in the file (`request.url`), when known. */
  pointer: z.string().optional(),
  message: z.string(),
});
export type ExtensionProblem = z.infer<typeof ExtensionProblemSchema>;

/** The stable codes of the extension API and of runs that meet a removed extension. */
export const EXTENSION_ERROR_CODES = [
  'EXTENSION_INVALID',
  'EXTENSION_INCOMPATIBLE',
  'EXTENSION_EXISTS',
  'EXTENSION_PERMISSIONS_NOT_ACCEPTED',
  'EXTENSION_REMOVED',
  'EXTENSION_DOMAIN_NOT_ALLOWED',
  'EXTENSION_HTTP_ERROR',
  'WORKFLOW_STEP_FAILED',
] as const;
export type ExtensionErrorCode = (typeof EXTENSION_ERROR_CODES)[number];

/** How many of each kind an extension provides. */
export const ExtensionCountsSchema = z.record(z.string(), z.number().int());

/**
 * `POST /api/extensions/preview`: what installing would do, before anything is installed — the
 * manifest, the permissions to accept, and every problem (an extension with problems cannot be
 * installed). The staged copy is kept for `POST /api/extensions` under `staging_id`.
 */
export const ExtensionPreviewSchema = z.object({
  staging_id: z.string(),
  ok: z.boolean(),
  manifest: ExtensionManifestSchema.nullable(),
  permissions: ExtensionPermissionsSchema.nullable(),
  counts: ExtensionCountsSchema,
  /** True when an extension with this id is installed (installing replaces it). */
  replaces: z.string().nullable(),
  problems: z.array(ExtensionProblemSchema),
});
export type ExtensionPreview = z.infer<typeof ExtensionPreviewSchema>;

/** `POST /api/extensions/preview` body: a folder or archive on this machine (uploads use `/upload`). */
export const ExtensionPreviewRequestSchema = z.object({ path: z.string().min(1).max(4096) });
export type ExtensionPreviewRequest = z.infer<typeof ExtensionPreviewRequestSchema>;

/**
 * `POST /api/extensions` body: install a staged extension. `accepted_permissions` must equal the
 * preview's permissions — what the user saw is what is recorded.
 */
export const ExtensionInstallRequestSchema = z.object({
  staging_id: z.string().min(1),
  accepted_permissions: ExtensionPermissionsSchema,
  enable: z.boolean().default(true),
});
export type ExtensionInstallRequest = z.input<typeof ExtensionInstallRequestSchema>;

export const ExtensionStateSchema = z.enum(['enabled', 'disabled']);
export type ExtensionState = z.infer<typeof ExtensionStateSchema>;

/** An installed extension as `GET /api/extensions` lists it. */
export const InstalledExtensionSchema = z.object({
  id: z.string(),
  version: z.string(),
  api_version: z.string(),
  name: z.object({ en: z.string(), 'zh-CN': z.string() }),
  description: z.object({ en: z.string(), 'zh-CN': z.string() }),
  state: ExtensionStateSchema,
  /** The permissions accepted at install, as recorded. */
  permissions: ExtensionPermissionsSchema,
  counts: ExtensionCountsSchema,
  installed_at: z.string(),
  updated_at: z.string(),
  /** Problems of the last reload of an edited file (the last good version stays active). */
  problems: z.array(ExtensionProblemSchema),
  reloaded_at: z.string().nullable(),
  /** Agent-framework components that wait for a restart to load (code loads only at start). */
  pending_restart: z.boolean(),
});
export type InstalledExtension = z.infer<typeof InstalledExtensionSchema>;

export const ExtensionListSchema = z.object({ extensions: z.array(InstalledExtensionSchema) });
export type ExtensionList = z.infer<typeof ExtensionListSchema>;

/** `PATCH /api/extensions/:id`. */
export const ExtensionPatchSchema = z.object({ enabled: z.boolean() });
export type ExtensionPatch = z.infer<typeof ExtensionPatchSchema>;

/** A panel, card or form an enabled extension serves (`GET /api/extensions/ui`). */
export const ExtensionUiEntrySchema = z.object({
  kind: z.enum(['panel', 'card', 'form']),
  id: z.string(),
  extension_id: z.string(),
  title: z.object({ en: z.string(), 'zh-CN': z.string() }),
  schema: z.unknown(),
});
export type ExtensionUiEntry = z.infer<typeof ExtensionUiEntrySchema>;
export const ExtensionUiListSchema = z.object({ entries: z.array(ExtensionUiEntrySchema) });

/** The workbench event sent when extensions change (install, reload, enable …); clients re-read. */
export const ExtensionsChangedPayloadSchema = z.object({
  extension_id: z.string(),
  change: z.enum(['installed', 'uninstalled', 'enabled', 'disabled', 'reloaded', 'reload_failed']),
});
export type ExtensionsChangedPayload = z.infer<typeof ExtensionsChangedPayloadSchema>;
