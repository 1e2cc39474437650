import { z } from 'zod';
import { CitationSchema } from './search.ts';

/**
 * What an `@` reference points at (spec §4.14): a file of the project's directory, an artifact, a
 * parsed document (an upload), or a whole knowledge item.
 *
 * @example
 * ReferenceKindSchema.parse('artifact');
 */
export const ReferenceKindSchema = z.enum(['file', 'artifact', 'document', 'knowledge']);
export type ReferenceKind = z.infer<typeof ReferenceKindSchema>;

/**
 * An object the user attached to a turn with `@` (spec §4.14): the server resolves it into the
 * turn's input. `id` is the artifact, upload or knowledge id, or for `file` the path relative to the
 * project's directory. `label` is what the composer showed.
 *
 * @example
 * MessageReferenceSchema.parse({ kind: 'file', id: 'src/index.ts', label: 'index.ts' });
 */
export const MessageReferenceSchema = z
  .object({
    kind: ReferenceKindSchema,
    id: z.string().min(1).max(4096),
    label: z.string().max(500),
  })
  .meta({ id: 'MessageReference' });
export type MessageReference = z.infer<typeof MessageReferenceSchema>;

/**
 * One entry of the `@` picker: what it would attach, and a line that tells it apart. A document
 * found by its text (not its name) carries the `citation` of the best passage.
 *
 * @example
 * { kind: 'artifact', id: 'a1', label: 'Plan.md', detail: 'markdown · v3' }
 */
export const ReferenceCandidateSchema = z
  .object({
    kind: ReferenceKindSchema,
    id: z.string(),
    label: z.string(),
    detail: z.string(),
    citation: CitationSchema.optional(),
  })
  .meta({ id: 'ReferenceCandidate' });
export type ReferenceCandidate = z.infer<typeof ReferenceCandidateSchema>;

/**
 * `GET /api/references?project_id=&query=`: candidates for the `@` picker, best match first.
 *
 * @example
 * const { candidates } = await client.references.search({ project_id: 'p1', query: 'plan' });
 */
export const ReferenceCandidateListSchema = z
  .object({ candidates: z.array(ReferenceCandidateSchema) })
  .meta({ id: 'ReferenceCandidateList' });
export type ReferenceCandidateList = z.infer<typeof ReferenceCandidateListSchema>;

/** The link scheme citations use in answers; the web renderer lets it through its sanitizer. */
export const DOCUMENT_LINK_SCHEME = 'youyou-doc';

/**
 * The link of a citation: `youyou-doc:<document id>#block-<n>`. The web UI opens the document in the
 * right column's viewer, scrolled to that block.
 *
 * @example
 * documentLink('d1', 12); // 'youyou-doc:d1#block-12'
 */
export function documentLink(documentId: string, block?: number): string {
  return `${DOCUMENT_LINK_SCHEME}:${encodeURIComponent(documentId)}${block === undefined ? '' : `#block-${block}`}`;
}

/**
 * Reads a `youyou-doc:` link back; null for anything else.
 *
 * @example
 * parseDocumentLink('youyou-doc:d1#block-12'); // { document_id: 'd1', block: 12 }
 */
export function parseDocumentLink(href: string): { document_id: string; block: number | null } | null {
  const match = /^youyou-doc:([^#\s]+)(?:#block-(\d{1,7}))?$/.exec(href);
  if (match === null) return null;
  let documentId: string;
  try {
    documentId = decodeURIComponent(match[1] ?? '');
  } catch {
    return null;
  }
  if (documentId === '') return null;
  return { document_id: documentId, block: match[2] === undefined ? null : Number(match[2]) };
}
