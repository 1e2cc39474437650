import type { KnowledgeSource } from '@youyou/contracts';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName, Schema } from '../database/index.ts';
import { characterCount, ftsPhrase, indexable, likePattern } from './query-terms.ts';

/** What a search is narrowed to. `projectId` undefined: every project; null: outside any project. */
export interface ChunkFilter {
  projectId?: string | null;
  knowledgeIds?: readonly string[];
  sources?: readonly KnowledgeSource[];
}

/** A full-text match: the chunk and its score (higher is better). */
export interface ScoredChunk {
  chunkId: number;
  score: number;
}

/**
 * The most matches one query ranks. A term in most chunks matches nearly all of them; bm25 gives it
 * an idf near zero, so ranking beyond the first matches changes little, and capping keeps the
 * query fast whatever the corpus (decision 0014).
 */
export const CANDIDATE_CAP = 500;
/**
 * Candidates of a LIKE-scan ranking (PostgreSQL, SQLite's short terms), whose text is scored in SQL.
 * A term in most chunks makes PostgreSQL's planner read the table in order and stop here.
 */
export const SCAN_CANDIDATE_CAP = 300;
/** Document frequencies are counted up to this (PostgreSQL): enough to tell rare from common. */
const DF_CAP = 10_000;
const K1 = 1.2;
const B = 0.75;

const BODY = sql`(c.heading_text || ' ' || c.text)`;

function filterSql(filter: ChunkFilter): RawBuilder<unknown>[] {
  const parts: RawBuilder<unknown>[] = [];
  if (filter.projectId === null) parts.push(sql`c.project_id is null`);
  // Extensions' knowledge packs belong to no project and are searched from every one.
  else if (filter.projectId !== undefined)
    parts.push(sql`(c.project_id = ${filter.projectId} or c.source = 'extension')`);
  if (filter.knowledgeIds !== undefined)
    parts.push(
      filter.knowledgeIds.length === 0
        ? sql`1 = 0`
        : sql`c.knowledge_id in (${sql.join(filter.knowledgeIds.map((id) => sql`${id}`))})`,
    );
  if (filter.sources !== undefined && filter.sources.length > 0)
    parts.push(sql`c.source in (${sql.join(filter.sources.map((source) => sql`${source}`))})`);
  return parts;
}

function and(parts: readonly RawBuilder<unknown>[]): RawBuilder<unknown> {
  return parts.length === 0 ? sql`1 = 1` : sql.join(parts, sql` and `);
}

/**
 * Full-text search over knowledge chunks on either storage tier, behind one call:
 *
 * - SQLite: the FTS5 trigram table for every term of three characters or more, ranked by FTS5's
 *   bm25 (headings weigh twice); shorter terms (一两个汉字, `AI`) are matched with LIKE on the
 *   same rows. A query of short terms only scans the chunks with LIKE.
 * - PostgreSQL: ILIKE per term, which the pg_trgm GIN index serves, ranked by bm25 computed in SQL
 *   (term frequency from the text, idf from capped document counts, length normalised by the
 *   candidates' mean).
 *
 * @example
 * const hits = await fullTextSearch(db, 'sqlite', ['refund policy'], { projectId: 'p1' }, 10);
 */
export async function fullTextSearch(
  db: Kysely<Schema>,
  dialect: DialectName,
  terms: readonly string[],
  filter: ChunkFilter,
  limit: number,
  match: 'all' | 'any' = 'all',
): Promise<ScoredChunk[]> {
  if (terms.length === 0) return [];
  const long = terms.filter(indexable);
  if (dialect === 'sqlite' && long.length > 0)
    return sqliteFts(db, match === 'any' ? long : terms, filter, limit, match);
  return scoredScan(db, dialect, terms, filter, limit, match);
}

async function sqliteFts(
  db: Kysely<Schema>,
  terms: readonly string[],
  filter: ChunkFilter,
  limit: number,
  mode: 'all' | 'any',
): Promise<ScoredChunk[]> {
  const long = terms.filter(indexable);
  const short = terms.filter((term) => !indexable(term));
  const match = long.map(ftsPhrase).join(mode === 'all' ? ' AND ' : ' OR ');
  const conditions = [
    sql`knowledge_fts match ${match}`,
    ...filterSql(filter),
    ...short.map((term) => sql`${BODY} like ${likePattern(term)} escape '\\'`),
  ];
  const result = await sql<{ id: number; score: number }>`
    select id, score from (
      select c.id as id, bm25(knowledge_fts, 1.0, 2.0) as score
      from knowledge_fts join knowledge_chunks c on c.id = knowledge_fts.rowid
      where ${and(conditions)}
      limit ${CANDIDATE_CAP}
    ) order by score limit ${limit}`.execute(db);
  return result.rows.map((row) => ({ chunkId: Number(row.id), score: -Number(row.score) }));
}

/** bm25 over candidate rows in SQL: PostgreSQL's path, and SQLite's for short terms only. */
async function scoredScan(
  db: Kysely<Schema>,
  dialect: DialectName,
  terms: readonly string[],
  filter: ChunkFilter,
  limit: number,
  mode: 'all' | 'any',
): Promise<ScoredChunk[]> {
  const like = sql.raw(dialect === 'postgres' ? 'ilike' : 'like');
  const matchers = terms.map((term) => sql`${BODY} ${like} ${likePattern(term)} escape '\\'`);
  const conditions = [
    ...filterSql(filter),
    ...(mode === 'all' ? matchers : [sql`(${sql.join(matchers, sql` or `)})`]),
  ];
  return rankCandidates(db, dialect, terms, filter, limit, conditions);
}

async function rankCandidates(
  db: Kysely<Schema>,
  dialect: DialectName,
  terms: readonly string[],
  filter: ChunkFilter,
  limit: number,
  conditions: readonly RawBuilder<unknown>[],
): Promise<ScoredChunk[]> {
  const idf = await inverseFrequencies(db, dialect, terms, filter);
  const real = dialect === 'postgres' ? sql.raw('double precision') : sql.raw('real');
  const number = (value: number): RawBuilder<unknown> => sql`cast(${value} as ${real})`;
  const parts = terms.map((term, index) => {
    const tf = sql`(cast(length(body) - length(replace(body, ${term}, '')) as ${real}) / ${number(characterCount(term))})`;
    return sql`${number(idf[index] ?? 1)} * (${tf} * ${number(K1 + 1)}) / (${tf} + ${number(K1)} * (${number(1 - B)} + ${number(B)} * len / avg_len))`;
  });
  const result = await sql<{ id: number; score: number }>`
    with candidates as (
      select c.id as id, lower(${BODY}) as body from knowledge_chunks c
      where ${and(conditions)}
      limit ${SCAN_CANDIDATE_CAP}
    ), measured as (
      select id, body, cast(length(body) as ${real}) as len, avg(cast(length(body) as ${real})) over () as avg_len
      from candidates
    )
    select id, (${sql.join(parts, sql` + `)}) as score from measured
    order by score desc, id limit ${limit}`.execute(db);
  return result.rows.map((row) => ({ chunkId: Number(row.id), score: Number(row.score) }));
}

/** bm25's idf per term, from document counts capped at DF_CAP; 1 each for a one-term query. */
async function inverseFrequencies(
  db: Kysely<Schema>,
  dialect: DialectName,
  terms: readonly string[],
  filter: ChunkFilter,
): Promise<number[]> {
  if (terms.length < 2) return terms.map(() => 1);
  const like = sql.raw(dialect === 'postgres' ? 'ilike' : 'like');
  const total = await sql<{ total: number | null }>`select sum(chunk_count) as total from knowledge_items c
    where ${filter.projectId === undefined ? sql`1 = 1` : filter.projectId === null ? sql`c.project_id is null` : sql`(c.project_id = ${filter.projectId} or c.source = 'extension')`}`.execute(
    db,
  );
  const documents = Math.max(1, Number(total.rows[0]?.total ?? 0));
  const idf: number[] = [];
  for (const term of terms) {
    const counted = await sql<{ count: number }>`select count(*) as count from (
      select 1 from knowledge_chunks c where ${and([...filterSql(filter), sql`${BODY} ${like} ${likePattern(term)} escape '\\'`])}
      limit ${DF_CAP}) matched`.execute(db);
    const frequency = Number(counted.rows[0]?.count ?? 0);
    idf.push(Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5)));
  }
  return idf;
}
