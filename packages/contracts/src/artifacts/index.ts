import { z } from 'zod';

/**
 * What an artifact holds (spec §4.3 artifacts, §4.4 viewer). The agent writes the first eight;
 * `upload` is a file the user attached, listed beside them.
 *
 * @example
 * ArtifactKindSchema.parse('markdown');
 */
export const ARTIFACT_KINDS = [
  'markdown',
  'code',
  'html',
  'svg',
  'mermaid',
  'csv',
  'json',
  'text',
  'upload',
] as const;
export const ArtifactKindSchema = z.enum(ARTIFACT_KINDS);
export type ArtifactKind = z.infer<typeof ArtifactKindSchema>;

/** The kinds the agent may create (uploads come from the user). */
export const WRITABLE_ARTIFACT_KINDS = ARTIFACT_KINDS.filter(
  (kind): kind is Exclude<ArtifactKind, 'upload'> => kind !== 'upload',
);

/** How a version came to be. */
export const ArtifactChangeSchema = z.enum(['create', 'replace', 'edit', 'upload']);
export type ArtifactChange = z.infer<typeof ArtifactChangeSchema>;

/**
 * An artifact as lists show it: its newest version's size and number.
 *
 * @example
 * const artifact: Artifact = await (await fetch(`/api/artifacts/${id}`)).json();
 */
export const ArtifactSchema = z.object({
  id: z.string(),
  conversation_id: z.string().nullable(),
  project_id: z.string().nullable(),
  /** The run that created it (a turn or a sub-agent); null for uploads. */
  run_id: z.string().nullable(),
  title: z.string(),
  kind: ArtifactKindSchema,
  /** The language of `code` artifacts (`ts`, `python` …); null otherwise. */
  language: z.string().nullable(),
  media_type: z.string(),
  /** The newest version, from 1. */
  version: z.number().int(),
  /** Bytes of the newest version. */
  size: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Artifact = z.infer<typeof ArtifactSchema>;

/** One stored version; `content` is absent for uploads (download their bytes instead). */
export const ArtifactVersionSchema = z.object({
  id: z.string(),
  artifact_id: z.string(),
  version: z.number().int(),
  change: ArtifactChangeSchema,
  /** The run that wrote it. */
  run_id: z.string().nullable(),
  size: z.number().int(),
  sha256: z.string(),
  lines: z.number().int(),
  created_at: z.string(),
  content: z.string().optional(),
});
export type ArtifactVersion = z.infer<typeof ArtifactVersionSchema>;

/** One hunk of a line diff, as `diff`'s structuredPatch makes it (lines start with ' ', '+' or '-'). */
export const ArtifactDiffHunkSchema = z.object({
  old_start: z.number().int(),
  old_lines: z.number().int(),
  new_start: z.number().int(),
  new_lines: z.number().int(),
  lines: z.array(z.string()),
});
export type ArtifactDiffHunk = z.infer<typeof ArtifactDiffHunkSchema>;

/**
 * The difference between two versions of one artifact.
 *
 * @example
 * const diff: ArtifactDiff = await (await fetch(`/api/artifacts/${id}/diff?from=1&to=2`)).json();
 */
export const ArtifactDiffSchema = z.object({
  artifact_id: z.string(),
  from: z.number().int(),
  to: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
  hunks: z.array(ArtifactDiffHunkSchema),
  /** The same diff as a unified patch (what `git diff` prints). */
  unified: z.string(),
});
export type ArtifactDiff = z.infer<typeof ArtifactDiffSchema>;

/** One exact find → replace edit of `update_artifact`. */
export const ArtifactEditSchema = z.object({
  find: z.string().min(1),
  replace: z.string(),
});
export type ArtifactEdit = z.infer<typeof ArtifactEditSchema>;

/** `artifact.created` (spec §4.2): a run wrote a new artifact. */
export const ArtifactCreatedPayloadSchema = z.object({
  artifact: ArtifactSchema,
  /** The assistant message (the top-level run) whose turn wrote it. */
  message_id: z.string().nullable(),
  /** The tool call that wrote it; absent when a tool result overflowed into it. */
  call_id: z.string().optional(),
  /** Set when it holds a tool result too long for the model (spec §4.10). */
  overflow_of: z.object({ call_id: z.string(), tool_name: z.string(), bytes: z.number().int() }).optional(),
});
export type ArtifactCreatedPayload = z.infer<typeof ArtifactCreatedPayloadSchema>;

/** `artifact.updated`: a new version of an artifact. */
export const ArtifactUpdatedPayloadSchema = z.object({
  artifact: ArtifactSchema,
  message_id: z.string().nullable(),
  call_id: z.string().optional(),
  change: ArtifactChangeSchema,
  added: z.number().int(),
  removed: z.number().int(),
});
export type ArtifactUpdatedPayload = z.infer<typeof ArtifactUpdatedPayloadSchema>;

/** `artifact.deleted`: gone from every list. */
export const ArtifactDeletedPayloadSchema = z.object({ artifact_id: z.string() });
export type ArtifactDeletedPayload = z.infer<typeof ArtifactDeletedPayloadSchema>;

/**
 * The artifact event types and their payloads, spread into the event registry
 * (`events/registry.ts`). `run_id` is the run (turn or sub-agent) that wrote the artifact.
 *
 * @example
 * ARTIFACT_EVENT_PAYLOAD_SCHEMAS['artifact.deleted'].parse({ artifact_id: 'a1' });
 */
export const ARTIFACT_EVENT_PAYLOAD_SCHEMAS = {
  'artifact.created': ArtifactCreatedPayloadSchema,
  'artifact.updated': ArtifactUpdatedPayloadSchema,
  'artifact.deleted': ArtifactDeletedPayloadSchema,
} as const;

/**
 * `@artifact:<id or title>` in a message or tool argument: what the composer inserts and the
 * server resolves.
 *
 * @example
 * parseArtifactReferences('see @artifact:report.md'); // ['report.md']
 */
export function parseArtifactReferences(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/@artifacts?:(?:"([^"]+)"|([^\s,;)]+))/g)) {
    const reference = match[1] ?? match[2];
    if (reference !== undefined && !found.includes(reference)) found.push(reference);
  }
  return found;
}

/** Stable codes of artifact errors (HTTP bodies and tool results). */
export const ARTIFACT_ERROR_CODES = [
  'ARTIFACT_EDIT_NOT_FOUND',
  'ARTIFACT_EDIT_AMBIGUOUS',
  'ARTIFACT_VERSION_MISMATCH',
] as const;
export type ArtifactErrorCode = (typeof ARTIFACT_ERROR_CODES)[number];
