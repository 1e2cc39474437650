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
 * The most matches in index order one query ranks (SQLite's FTS5 path), and the most chunks whose
 * heading names a term. A term in most chunks matches nearly all of them; ranking every match would
 * read them all, so candidates are bounded and the heading ones (the chunks about the term) added
 * (decisions 0014, 0021).
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
/** A term in a chunk's heading counts as much as this many in its text. */
const HEADING_WEIGHT = 2;
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
 * Full-text search over knowledge chunks on either storage tier, behind one call. Matching and
 * ranking are two steps (decision 0021):
 *
 * - Candidates, bounded: the first matches in index order (SQLite: the FTS5 trigram table for every
 *   term of three characters or more, with LIKE for shorter terms on the same rows; PostgreSQL:
 *   ILIKE per term, served by the pg_trgm GIN index), and, for terms of three characters or more,
 *   the matching chunks whose heading names a term, found through an index over headings alone. A
 *   term in most chunks thus never makes the search read every match, yet the chunks about it
 *   (their heading says so) are always ranked.
 * - Ranking: bm25 computed in SQL over the candidates, the same on both tiers: term frequency from
 *   the text plus twice the heading's, idf from capped document counts, length normalised by the
 *   candidates' mean.
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
  // A loose search on SQLite matches its long terms only: a short one would turn it into a scan.
  const searched = dialect === 'sqlite' && match === 'any' && long.length > 0 ? long : terms;
  const candidates = [
    sql`select * from (${bodyCandidates(dialect, searched, filter, match)}) as body_matches`,
  ];
  if (long.length > 0)
    candidates.push(
      sql`select * from (${headingCandidates(dialect, searched, long, filter, match)}) as heading_matches`,
    );
  return rankCandidates(db, dialect, searched, filter, limit, sql.join(candidates, sql` union `));
}

function bodyMatchers(
  dialect: DialectName,
  terms: readonly string[],
  mode: 'all' | 'any',
): RawBuilder<unknown>[] {
  const like = sql.raw(dialect === 'postgres' ? 'ilike' : 'like');
  const matchers = terms.map((term) => sql`${BODY} ${like} ${likePattern(term)} escape '\\'`);
  return mode === 'all' ? matchers : [sql`(${sql.join(matchers, sql` or `)})`];
}

/** The first matches in index order, up to the cap. */
function bodyCandidates(
  dialect: DialectName,
  terms: readonly string[],
  filter: ChunkFilter,
  mode: 'all' | 'any',
): RawBuilder<unknown> {
  const long = terms.filter(indexable);
  if (dialect === 'sqlite' && long.length > 0) {
    const short = terms.filter((term) => !indexable(term));
    const conditions = [
      sql`knowledge_fts match ${long.map(ftsPhrase).join(mode === 'all' ? ' AND ' : ' OR ')}`,
      ...filterSql(filter),
      ...(short.length === 0 ? [] : bodyMatchers(dialect, short, mode)),
    ];
    return sql`select c.id as id from knowledge_fts join knowledge_chunks c on c.id = knowledge_fts.rowid
      where ${and(conditions)} limit ${CANDIDATE_CAP}`;
  }
  return sql`select c.id as id from knowledge_chunks c
    where ${and([...filterSql(filter), ...bodyMatchers(dialect, terms, mode)])} limit ${SCAN_CANDIDATE_CAP}`;
}

/** Matching chunks whose heading holds one of the long terms, through the index over headings. */
function headingCandidates(
  dialect: DialectName,
  terms: readonly string[],
  long: readonly string[],
  filter: ChunkFilter,
  mode: 'all' | 'any',
): RawBuilder<unknown> {
  const conditions = [...filterSql(filter), ...(mode === 'all' ? bodyMatchers(dialect, terms, mode) : [])];
  if (dialect === 'sqlite')
    return sql`select c.id as id from knowledge_headings_fts h join knowledge_chunks c on c.id = h.rowid
      where ${and([sql`knowledge_headings_fts match ${long.map(ftsPhrase).join(' OR ')}`, ...conditions])}
      limit ${CANDIDATE_CAP}`;
  const headings = long.map((term) => sql`c.heading_text ilike ${likePattern(term)} escape '\\'`);
  return sql`select c.id as id from knowledge_chunks c
    where ${and([sql`(${sql.join(headings, sql` or `)})`, ...conditions])} limit ${CANDIDATE_CAP}`;
}

async function rankCandidates(
  db: Kysely<Schema>,
  dialect: DialectName,
  terms: readonly string[],
  filter: ChunkFilter,
  limit: number,
  candidates: RawBuilder<unknown>,
): Promise<ScoredChunk[]> {
  const idf = await inverseFrequencies(db, dialect, terms, filter);
  const real = dialect === 'postgres' ? sql.raw('double precision') : sql.raw('real');
  const number = (value: number): RawBuilder<unknown> => sql`cast(${value} as ${real})`;
  const count = (column: RawBuilder<unknown>, term: string): RawBuilder<unknown> =>
    sql`(cast(length(${column}) - length(replace(${column}, ${term}, '')) as ${real}) / ${number(characterCount(term))})`;
  const parts = terms.map((term, index) => {
    // The heading weighs twice, as a reader would have it.
    const tf = sql`(${count(sql`body`, term)} + ${number(HEADING_WEIGHT)} * ${count(sql`heading`, term)})`;
    return sql`${number(idf[index] ?? 1)} * (${tf} * ${number(K1 + 1)}) / (${tf} + ${number(K1)} * (${number(1 - B)} + ${number(B)} * len / avg_len))`;
  });
  const result = await sql<{ id: number; score: number }>`
    with candidates as (${candidates}), measured as (
      select c.id as id, lower(c.text) as body, lower(c.heading_text) as heading,
        cast(length(c.text) + length(c.heading_text) as ${real}) as len,
        avg(cast(length(c.text) + length(c.heading_text) as ${real})) over () as avg_len
      from knowledge_chunks c where c.id in (select id from candidates)
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
  const total = await sql<{ total: number | null }>`select sum(chunk_count) as total from knowledge_items c
    where ${filter.projectId === undefined ? sql`1 = 1` : filter.projectId === null ? sql`c.project_id is null` : sql`(c.project_id = ${filter.projectId} or c.source = 'extension')`}`.execute(
    db,
  );
  const documents = Math.max(1, Number(total.rows[0]?.total ?? 0));
  const idf: number[] = [];
  for (const term of terms) {
    // SQLite counts a long term through the FTS5 index; LIKE would read every row of a rare one.
    const matched =
      dialect === 'sqlite' && indexable(term)
        ? sql`select 1 from knowledge_fts join knowledge_chunks c on c.id = knowledge_fts.rowid
            where ${and([sql`knowledge_fts match ${ftsPhrase(term)}`, ...filterSql(filter)])} limit ${DF_CAP}`
        : sql`select 1 from knowledge_chunks c
            where ${and([...filterSql(filter), ...bodyMatchers(dialect, [term], 'all')])} limit ${DF_CAP}`;
    const counted = await sql<{ count: number }>`select count(*) as count from (${matched}) matched`.execute(
      db,
    );
    const frequency = Number(counted.rows[0]?.count ?? 0);
    idf.push(Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5)));
  }
  return idf;
}
