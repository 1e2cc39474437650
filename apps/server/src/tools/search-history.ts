import type { SessionRecord, ToolHandler } from '@youyou/agent';
import { sql, type Kysely } from 'kysely';
import type { DialectName, Schema } from '../database/index.ts';
import type { RunBindings } from '../run-bindings/index.ts';
import { errorOutput } from './tool-errors.ts';

const SNIPPET_RADIUS = 80;

export interface HistoryHit {
  conversation_id: string;
  conversation_title: string;
  message_id: string;
  role: 'user' | 'assistant';
  snippet: string;
  created_at: string;
  /** A link the web UI opens: the conversation, scrolled to the message. */
  link: string;
}

function textOf(record: SessionRecord): string {
  if (record.type === 'assistant_message') return record.content;
  if (record.type === 'user_message') {
    return record.content
      .map((block) => (block.type === 'text' ? block.text : ''))
      .filter((text) => text !== '')
      .join('\n');
  }
  return '';
}

function snippetOf(text: string, at: number, length: number): string {
  const start = Math.max(0, at - SNIPPET_RADIUS);
  const end = Math.min(text.length, at + length + SNIPPET_RADIUS);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ').trim()}${end < text.length ? '…' : ''}`;
}

/**
 * Full-text search over the messages of one conversation or of every conversation of a project,
 * newest first. Messages live in the event log as the agent's session records (decision 0003), so
 * the search reads those: a LIKE over the stored JSON narrows the rows, the parsed text decides.
 *
 * @example
 * const hits = await searchHistory(db, 'sqlite', { query: 'invoice', conversationIds: ['c1'] });
 */
export async function searchHistory(
  db: Kysely<Schema>,
  dialect: DialectName,
  options: {
    query: string;
    conversationId: string;
    projectId: string | null;
    scope: 'conversation' | 'project';
    excludeRunId?: string;
    limit: number;
  },
): Promise<HistoryHit[]> {
  const needle = JSON.stringify(options.query)
    .slice(1, -1)
    .replace(/[\\%_]/g, (char) => `\\${char}`);
  let query = db
    .selectFrom('events')
    .innerJoin('runs', 'runs.id', 'events.run_id')
    .innerJoin('conversations', 'conversations.id', 'events.conversation_id')
    .select([
      'events.conversation_id',
      'events.run_id',
      'events.payload',
      'events.ts',
      'runs.user_message_id',
      'conversations.title',
    ])
    .where('events.type', '=', 'session.record')
    // LIKE is case-insensitive for ASCII on SQLite; ILIKE on PostgreSQL. Backslash escapes % and _.
    .where(
      sql<boolean>`events.payload ${sql.raw(dialect === 'postgres' ? 'ilike' : 'like')} ${`%${needle}%`} escape '\\'`,
    );
  if (options.scope === 'conversation')
    query = query.where('events.conversation_id', '=', options.conversationId);
  else if (options.projectId === null) query = query.where('conversations.project_id', 'is', null);
  else query = query.where('conversations.project_id', '=', options.projectId);
  if (options.excludeRunId !== undefined) query = query.where('events.run_id', '!=', options.excludeRunId);
  const rows = await query
    .orderBy('events.ts', 'desc')
    .limit(options.limit * 5)
    .execute();
  const lowered = options.query.toLocaleLowerCase();
  const hits: HistoryHit[] = [];
  for (const row of rows) {
    const { record } = JSON.parse(row.payload) as { record: SessionRecord };
    if (record.type !== 'user_message' && record.type !== 'assistant_message') continue;
    const text = textOf(record);
    const at = text.toLocaleLowerCase().indexOf(lowered);
    if (at === -1) continue;
    const messageId =
      record.type === 'assistant_message' ? (row.run_id as string) : (row.user_message_id ?? '');
    hits.push({
      conversation_id: row.conversation_id,
      conversation_title: row.title,
      message_id: messageId,
      role: record.type === 'assistant_message' ? 'assistant' : 'user',
      snippet: snippetOf(text, at, options.query.length),
      created_at: new Date(Number(row.ts)).toISOString(),
      link: `#/c/${encodeURIComponent(row.conversation_id)}/m/${encodeURIComponent(messageId)}`,
    });
    if (hits.length === options.limit) break;
  }
  return hits;
}

/**
 * `search_history`: the model looks up what was said before, in this conversation or the project.
 *
 * @example
 * builder.addTool(searchHistoryTool({ db, dialect, bindings }));
 */
export function searchHistoryTool(options: {
  db: Kysely<Schema>;
  dialect: DialectName;
  bindings: RunBindings;
}): ToolHandler {
  return {
    name: 'search_history',
    description:
      'Full-text search over earlier messages: this conversation (the default) or, with scope "project", every conversation of the project. Returns snippets with links to the messages.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'Words to look for (any language).' },
        scope: { type: 'string', enum: ['conversation', 'project'] },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: 'Default 10.' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    mutating: false,
    async execute({ arguments: input }, context) {
      try {
        const binding = options.bindings.get(context.sessionId);
        if (binding === undefined)
          return {
            content: 'Error [INVALID_INPUT]: search_history works inside a workbench conversation.',
            isError: true,
          };
        const hits = await searchHistory(options.db, options.dialect, {
          query: String(input.query),
          conversationId: binding.conversationId,
          projectId: binding.projectId,
          scope: input.scope === 'project' ? 'project' : 'conversation',
          excludeRunId: binding.runId,
          limit: typeof input.limit === 'number' ? input.limit : 10,
        });
        if (hits.length === 0)
          return {
            content: `No earlier message mentions ${JSON.stringify(input.query)}.`,
            metadata: { hits: [] },
          };
        const lines = hits.map(
          (hit) =>
            `- [${hit.role}, ${hit.created_at.slice(0, 16).replace('T', ' ')}${input.scope === 'project' ? `, "${hit.conversation_title || 'Untitled'}"` : ''}](${hit.link}) ${hit.snippet}`,
        );
        return { content: `${hits.length} messages:\n${lines.join('\n')}`, metadata: { hits } };
      } catch (error) {
        return errorOutput(error);
      }
    },
  };
}
