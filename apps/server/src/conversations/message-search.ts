import type { MessageSearchHit } from '@youyou/contracts';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName, Schema } from '../database/index.ts';
import { ApiError } from '../errors/index.ts';
import { ftsPhrase, indexable, likePattern, queryTerms, snippetOf } from '../knowledge/index.ts';

/** The longest query accepted: a search box, not a document. */
export const MAX_MESSAGE_QUERY = 200;
export const DEFAULT_MESSAGE_HITS = 20;
export const MAX_MESSAGE_HITS = 100;

/**
 * Message text search (decision 0039): every term of `query` must occur in a user or assistant
 * message; newest first. Terms of three characters or more go through the trigram index (FTS5 on
 * SQLite, pg_trgm on PostgreSQL), shorter ones are checked with LIKE on the rows the index found
 * (or, when a query has only short terms, by a bounded scan). Each hit carries a snippet around
 * its first match with every match marked.
 *
 * @example
 * const hits = await searchMessages(db, 'sqlite', { query: '营收 report', limit: 20 });
 */
export async function searchMessages(
  db: Kysely<Schema>,
  dialect: DialectName,
  options: { query: string; limit?: number },
): Promise<MessageSearchHit[]> {
  const query = options.query.trim();
  if (query === '' || query.length > MAX_MESSAGE_QUERY)
    throw new ApiError(
      'INVALID_INPUT',
      query === ''
        ? 'A message search needs at least one word.'
        : `A message search is at most ${MAX_MESSAGE_QUERY} characters.`,
      { details: { field: 'query' } },
    );
  const terms = queryTerms(query);
  const limit = Math.min(MAX_MESSAGE_HITS, Math.max(1, Math.floor(options.limit ?? DEFAULT_MESSAGE_HITS)));
  const like = sql.raw(dialect === 'postgres' ? 'ilike' : 'like');
  const long = terms.filter(indexable);
  const conditions: RawBuilder<unknown>[] = [];
  let from = sql`message_texts m`;
  if (dialect === 'sqlite' && long.length > 0) {
    from = sql`message_texts_fts f join message_texts m on m.id = f.rowid`;
    conditions.push(sql`message_texts_fts match ${long.map(ftsPhrase).join(' AND ')}`);
  }
  const scanned = dialect === 'sqlite' && long.length > 0 ? terms.filter((term) => !indexable(term)) : terms;
  for (const term of scanned) conditions.push(sql`m.text ${like} ${likePattern(term)} escape '\\'`);
  const result = await sql<{
    conversation_id: string;
    title: string;
    run_id: string | null;
    user_message_id: string | null;
    role: 'user' | 'assistant';
    text: string;
    ts: number;
  }>`select m.conversation_id, c.title, m.run_id, r.user_message_id, m.role, m.text, m.ts
    from ${from}
    join conversations c on c.id = m.conversation_id
    left join runs r on r.id = m.run_id
    where ${sql.join(conditions, sql` and `)}
    order by m.ts desc, m.id desc limit ${limit}`.execute(db);
  return result.rows.map((row) => {
    const { snippet, highlights } = snippetOf(row.text, terms);
    return {
      conversation_id: row.conversation_id,
      conversation_title: row.title,
      // A user message is addressed by its run's user message id, an answer by its run (as the view).
      message_id: (row.role === 'user' ? row.user_message_id : row.run_id) ?? '',
      role: row.role,
      snippet,
      highlights,
      created_at: new Date(Number(row.ts)).toISOString(),
    };
  });
}
