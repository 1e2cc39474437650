import { z } from 'zod';

/**
 * The retrieval contract's version (spec agent-system-skeleton-design-r4 §4.12, §5): a stored chunk
 * records the version that cut it, so a rebuild can tell stale chunks from current ones. Fields are
 * only added, never re-meant.
 *
 * @example
 * chunk.version === RETRIEVAL_CONTRACT_VERSION; // cut by this chunker
 */
export const RETRIEVAL_CONTRACT_VERSION = 1;

/**
 * Where a chunk sits in its document: the page (PDF), slide (pptx) or sheet (xlsx/csv) its first
 * block is on. Pages and slides count from 1; sheets are named.
 *
 * @example
 * ChunkLocationSchema.parse({ page: 3 });
 */
export const ChunkLocationSchema = z
  .object({
    page: z.number().int().positive().optional(),
    slide: z.number().int().positive().optional(),
    sheet: z.string().optional(),
  })
  .meta({ id: 'ChunkLocation' });
export type ChunkLocation = z.infer<typeof ChunkLocationSchema>;

/**
 * A piece of a parsed document, cut along its blocks (spec §4.12 Chunker): never through a table
 * row or a code block, carrying the headings it sits under. `block_start`..`block_end` are the
 * indexes (inclusive) of the document's blocks it covers, so a citation opens the document there.
 *
 * @example
 * const chunk: Chunk = { id: 'k1', document_id: 'd1', version: 1, ordinal: 0, text: 'Revenue…',
 *   heading_path: ['Report', 'Q3'], location: { page: 2 }, block_start: 4, block_end: 6 };
 */
export const ChunkSchema = z
  .object({
    id: z.string(),
    document_id: z.string(),
    /** The RETRIEVAL_CONTRACT_VERSION of the chunker that cut it. */
    version: z.number().int().positive(),
    /** Its position in the document, from 0. */
    ordinal: z.number().int().nonnegative(),
    text: z.string(),
    /** The headings above it, outermost first (`['Report', 'Q3']`). */
    heading_path: z.array(z.string()),
    location: ChunkLocationSchema,
    block_start: z.number().int().nonnegative(),
    block_end: z.number().int().nonnegative(),
  })
  .meta({ id: 'Chunk' });
export type Chunk = z.infer<typeof ChunkSchema>;

/** A chunk before it is stored: the chunker's output. */
export type ChunkDraft = Omit<Chunk, 'id' | 'document_id'>;

/**
 * How a chunker cuts: about `target_chars` per chunk, repeating the last `overlap_chars` of the one
 * before (whole sentences where it can), and never more than `max_chars` unless one indivisible
 * unit (a table row, a code block) is larger on its own.
 *
 * @example
 * ChunkerOptionsSchema.parse({}); // { target_chars: 1200, overlap_chars: 150, max_chars: 4000 }
 */
export const ChunkerOptionsSchema = z
  .object({
    target_chars: z.number().int().min(100).max(20_000).default(1200),
    overlap_chars: z.number().int().min(0).max(5_000).default(150),
    max_chars: z.number().int().min(200).max(100_000).default(4000),
  })
  .meta({ id: 'ChunkerOptions' });
export type ChunkerOptions = z.infer<typeof ChunkerOptionsSchema>;

/**
 * Cuts a parsed document into chunks (spec §4.12). Implementations are pure: the same blocks and
 * options give the same chunks.
 *
 * @example
 * const chunks = chunker.chunk(parsed.blocks, { target_chars: 800, overlap_chars: 100, max_chars: 3000 });
 */
export interface Chunker<TBlock> {
  readonly id: string;
  chunk(blocks: readonly TBlock[], options?: Partial<ChunkerOptions>): ChunkDraft[];
}
