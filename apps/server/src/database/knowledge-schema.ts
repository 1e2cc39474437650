import type { Generated } from 'kysely';

/** The tables of a project's knowledge (migration 0055, spec §4.12). */

/** One indexed document: an upload's parsed document or an artifact. */
export interface KnowledgeItemsTable {
  id: string;
  project_id: string | null;
  /** upload | artifact | extension. */
  source: string;
  /** The upload's, artifact's or extension item's id; unique per source. */
  source_id: string;
  /** The parsed document (ingest) the chunks were cut from; null for artifacts and until parsed. */
  document_id: string | null;
  title: string;
  media_type: string;
  /** queued | parsing | indexed | failed. */
  status: string;
  error_code: string | null;
  error_message: string | null;
  chunk_count: number;
  embedded_count: number;
  attempts: number;
  source_version: number;
  indexed_at: number | null;
  /** The server instance that holds a queued or indexing item (migration 0096); null otherwise. */
  claimed_by: string | null;
  claimed_at: number | null;
  created_at: number;
  updated_at: number;
}

/** One chunk (contract `Chunk`); the FTS5 table (SQLite) or trigram index (PostgreSQL) covers it. */
export interface KnowledgeChunksTable {
  /** An integer the database assigns: the FTS5 table's rowid on SQLite. */
  id: Generated<number>;
  knowledge_id: string;
  /** Copied from the item, so searches filter without a join. */
  project_id: string | null;
  source: string;
  ordinal: number;
  version: number;
  text: string;
  /** JSON array of the heading path. */
  heading_path: string;
  /** The heading path joined with ' › ', searched with the text. */
  heading_text: string;
  /** JSON of the ChunkLocation. */
  location: string;
  block_start: number;
  block_end: number;
  created_at: number;
}

/** One chunk's embedding under one model: float32 little-endian bytes (SQLite) or real[] (PostgreSQL). */
export interface KnowledgeVectorsTable {
  chunk_id: number;
  knowledge_id: string;
  project_id: string | null;
  model: string;
  dimensions: number;
  vector: Uint8Array | number[];
}

/** SQLite only: the external-content FTS5 trigram index over `knowledge_chunks`. */
export interface KnowledgeFtsTable {
  rowid: number;
  text: string;
  heading: string;
}

export interface KnowledgeSchema {
  knowledge_items: KnowledgeItemsTable;
  knowledge_chunks: KnowledgeChunksTable;
  knowledge_vectors: KnowledgeVectorsTable;
  knowledge_fts: KnowledgeFtsTable;
}
