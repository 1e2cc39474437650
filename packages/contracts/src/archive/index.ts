import { z } from 'zod';

/**
 * Export/import archives (spec agent-system-skeleton-design-r4 §4.16): a zip holding
 * `manifest.json`, one JSON file of rows per conversation (its context reports and memory
 * candidates among them), the project rows, the memories, the stored objects (uploads) and a
 * Markdown rendering per conversation for people. The manifest lists every other entry with its
 * size and SHA-256; an import checks all of them before it writes anything.
 */

/** The manifest's `format` marker. */
export const ARCHIVE_FORMAT = 'youyou.archive';

/**
 * The newest archive format this build writes and reads; it reads every older one too. Version 2
 * added the `memories` entry and, in a conversation's rows, `context_reports` and
 * `memory_candidates` (absent from a version 1 archive: read as none).
 *
 * @example
 * manifest.format_version <= ARCHIVE_FORMAT_VERSION;
 */
export const ARCHIVE_FORMAT_VERSION = 2;

/** The manifest's own entry name, at the archive's root. */
export const ARCHIVE_MANIFEST_PATH = 'manifest.json';

/** What an archive was made from. */
export const ARCHIVE_SCOPES = ['conversation', 'project', 'everything'] as const;
export type ArchiveScope = (typeof ARCHIVE_SCOPES)[number];

/**
 * What an entry holds: rows (JSON: projects, a conversation, memories), a stored object's bytes,
 * or a Markdown rendering.
 */
export const ARCHIVE_ITEM_KINDS = ['projects', 'conversation', 'memories', 'object', 'markdown'] as const;
export type ArchiveItemKind = (typeof ARCHIVE_ITEM_KINDS)[number];

/**
 * A relative entry path: forward slashes, no empty, `.` or `..` segment, no drive or leading
 * slash, no backslash or control character.
 */
export const archivePathSchema = z
  .string()
  .min(1)
  .max(512)
  .refine(
    (path) =>
      !path.startsWith('/') &&
      ![...path].some((character) => character === '\\' || character.charCodeAt(0) < 0x20) &&
      !/^[A-Za-z]:/.test(path) &&
      path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..'),
    { message: 'An archive path must be relative and stay inside the archive.' },
  );

export const archiveItemSchema = z.object({
  path: archivePathSchema,
  kind: z.enum(ARCHIVE_ITEM_KINDS),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ArchiveItem = z.infer<typeof archiveItemSchema>;

/**
 * `manifest.json`.
 *
 * @example
 * const manifest = archiveManifestSchema.parse(JSON.parse(text));
 */
export const archiveManifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  format_version: z.number().int().positive(),
  app_version: z.string().min(1).max(100),
  created_at: z.iso.datetime(),
  scope: z.enum(ARCHIVE_SCOPES),
  /** The projects and conversations inside, with their ids in the exporting database. */
  projects: z.array(z.object({ id: z.string(), name: z.string() })),
  conversations: z.array(z.object({ id: z.string(), title: z.string(), project_id: z.string().nullable() })),
  items: z.array(archiveItemSchema).max(100_000),
});
export type ArchiveManifest = z.infer<typeof archiveManifestSchema>;

/**
 * Where an import goes: into a project that exists, or (default) as the archive's own projects
 * made new; conversations without a project stay without one unless a target project is named.
 */
export const archiveImportOptionsSchema = z.object({
  project_id: z.string().min(1).optional(),
  /**
   * A new project whose name a project here already has: `copy` (the default) imports it under the
   * first free "Name (2)", "Name (3)" …; `refuse` imports nothing (ARCHIVE_NAME_TAKEN). The
   * preview says which names are taken and what each would become.
   */
  on_name_conflict: z.enum(['copy', 'refuse']).optional(),
});
export type ArchiveImportOptions = z.infer<typeof archiveImportOptionsSchema>;

/** What an import made, with the new ids. */
export const archiveImportResultSchema = z.object({
  projects: z.array(z.object({ id: z.string(), name: z.string(), source_id: z.string() })),
  conversations: z.array(z.object({ id: z.string(), title: z.string(), source_id: z.string() })),
  counts: z.record(z.string(), z.number().int().nonnegative()),
});
export type ArchiveImportResult = z.infer<typeof archiveImportResultSchema>;

/**
 * What an import would create, read from the archive (checked as an import checks it) without
 * writing anything: the new projects with the name each gets (`name_taken`: a project here has its
 * name, so it comes in as a copy with `import_name`), the conversations, and where they go.
 */
export const archiveImportPreviewSchema = z.object({
  scope: z.enum(ARCHIVE_SCOPES),
  created_at: z.string(),
  /** The project it goes into, when one is named; then no project is created. */
  target_project: z.object({ id: z.string(), name: z.string() }).nullable(),
  projects: z.array(
    z.object({
      source_id: z.string(),
      name: z.string(),
      import_name: z.string(),
      name_taken: z.boolean(),
    }),
  ),
  conversations: z.array(z.object({ source_id: z.string(), title: z.string() })),
  memories: z.number().int().nonnegative(),
});
export type ArchiveImportPreview = z.infer<typeof archiveImportPreviewSchema>;

/**
 * Why an archive is refused. `ARCHIVE_INVALID`: not a zip, a missing or unreadable manifest, a
 * file the manifest does not list, rows that do not parse. `ARCHIVE_CHECKSUM_MISMATCH`: an entry's
 * bytes differ from the manifest. `ARCHIVE_UNSAFE_PATH`: an entry path that would leave the
 * archive. `ARCHIVE_TOO_LARGE`: an entry or the whole beyond the server's limits.
 * `ARCHIVE_VERSION_UNSUPPORTED`: a format version newer than this build. `ARCHIVE_NAME_TAKEN`: a
 * new project's name is taken here and the import was asked to refuse rather than copy.
 */
export const ARCHIVE_ERROR_CODES = [
  'ARCHIVE_INVALID',
  'ARCHIVE_CHECKSUM_MISMATCH',
  'ARCHIVE_UNSAFE_PATH',
  'ARCHIVE_TOO_LARGE',
  'ARCHIVE_VERSION_UNSUPPORTED',
  'ARCHIVE_NAME_TAKEN',
] as const;
export type ArchiveErrorCode = (typeof ARCHIVE_ERROR_CODES)[number];
