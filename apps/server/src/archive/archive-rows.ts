import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import type { Schema } from '../database/index.ts';
import { ApiError } from '../errors/index.ts';

type Row = Record<string, unknown>;

/**
 * The tables that hold a conversation, in the order an import inserts them (foreign keys point
 * backwards). Each is read by its `conversation_id`, except `artifact_versions` (by the
 * conversation's artifacts) and `settings` (scope `conversation`).
 */
export const CONVERSATION_TABLES = [
  'runs',
  'events',
  'agent_sessions',
  'uploads',
  'artifacts',
  'artifact_versions',
  'subagent_tasks',
  'usage',
  'hitl_cards',
  'tool_audit',
  'tool_grants',
  'planboards',
  'settings',
] as const;
export type ConversationTable = (typeof CONVERSATION_TABLES)[number];

const rowsSchema = z.array(z.record(z.string(), z.unknown())).max(1_000_000);

/** One conversation's rows, as `conversations/<id>.json` holds them. */
export const conversationRowsSchema = z.object({
  conversation: z.record(z.string(), z.unknown()),
  tables: z.object(
    Object.fromEntries(CONVERSATION_TABLES.map((table) => [table, rowsSchema])) as Record<
      ConversationTable,
      typeof rowsSchema
    >,
  ),
});
export type ConversationRows = z.infer<typeof conversationRowsSchema>;

/** The projects' rows and their project-scoped settings and uploads, as `projects.json` holds them. */
export const projectRowsSchema = z.object({
  projects: rowsSchema,
  settings: rowsSchema,
  uploads: rowsSchema,
});
export type ProjectRows = z.infer<typeof projectRowsSchema>;

/**
 * Every row of one conversation.
 *
 * @example
 * const rows = await readConversationRows(db, conversationId);
 */
export async function readConversationRows(
  db: Kysely<Schema>,
  conversationId: string,
): Promise<ConversationRows> {
  const conversation = await db
    .selectFrom('conversations')
    .selectAll()
    .where('id', '=', conversationId)
    .executeTakeFirst();
  if (conversation === undefined) {
    throw new ApiError('NOT_FOUND', `No conversation has id ${conversationId}.`, {
      details: { resource: 'conversation', id: conversationId },
    });
  }
  const byConversation = (table: Exclude<ConversationTable, 'artifact_versions' | 'settings'>) =>
    (db as unknown as Kysely<Record<string, { conversation_id: string }>>)
      .selectFrom(table)
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .execute() as Promise<Row[]>;
  const [runs, events, sessions, uploads, artifacts, tasks, usage, cards, audit, grants, boards] =
    await Promise.all([
      db
        .selectFrom('runs')
        .selectAll()
        .where('conversation_id', '=', conversationId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('events')
        .selectAll()
        .where('conversation_id', '=', conversationId)
        .orderBy('seq')
        .execute(),
      byConversation('agent_sessions'),
      byConversation('uploads'),
      byConversation('artifacts'),
      byConversation('subagent_tasks'),
      byConversation('usage'),
      byConversation('hitl_cards'),
      byConversation('tool_audit'),
      byConversation('tool_grants'),
      byConversation('planboards'),
    ]);
  const artifactIds = artifacts.map((artifact) => String(artifact['id']));
  const versions =
    artifactIds.length === 0
      ? []
      : await db
          .selectFrom('artifact_versions')
          .selectAll()
          .where('artifact_id', 'in', artifactIds)
          .orderBy('artifact_id')
          .orderBy('version')
          .execute();
  const settings = await db
    .selectFrom('settings')
    .selectAll()
    .where('scope', '=', 'conversation')
    .where('scope_id', '=', conversationId)
    .execute();
  return {
    conversation: { ...conversation, owner: null },
    tables: {
      runs: runs.map((run) => ({ ...run, instance_id: null })),
      events,
      agent_sessions: sessions,
      uploads,
      artifacts,
      artifact_versions: versions,
      subagent_tasks: tasks,
      usage,
      hitl_cards: cards.map((card) => ({ ...card, instance_id: null })),
      tool_audit: audit,
      tool_grants: grants,
      planboards: boards,
      settings,
    },
  };
}

/**
 * The rows of some projects: the projects (their directory left out — a path on the exporting
 * machine, and a grant of file access an archive must not carry), project settings and the
 * uploads that belong to a project but to no conversation.
 *
 * @example
 * const rows = await readProjectRows(db, [projectId]);
 */
export async function readProjectRows(
  db: Kysely<Schema>,
  projectIds: readonly string[],
): Promise<ProjectRows> {
  if (projectIds.length === 0) return { projects: [], settings: [], uploads: [] };
  const ids = [...projectIds];
  const [projects, settings, uploads] = await Promise.all([
    db.selectFrom('projects').selectAll().where('id', 'in', ids).orderBy('created_at').execute(),
    db
      .selectFrom('settings')
      .selectAll()
      .where('scope', '=', 'project')
      .where('scope_id', 'in', ids)
      .execute(),
    db
      .selectFrom('uploads')
      .selectAll()
      .where('project_id', 'in', ids)
      .where('conversation_id', 'is', null)
      .execute(),
  ]);
  return {
    projects: projects.map((project) => ({ ...project, directory: null, owner: null })),
    settings,
    uploads,
  };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * New ids for an import. Every id in the workbench is a UUID, and every reference to one (columns,
 * event payloads, JSON columns, `@artifact:` mentions, "stored as artifact …" text) spells it out:
 * replacing every UUID of the archive's rows by a fresh one, the same one everywhere, gives rows
 * that collide with nothing and still point at each other. Ids of things outside the archive
 * (a profile) are kept as they are; `target` maps the archive's projects onto an existing one.
 */
export class IdRemapper {
  readonly #map = new Map<string, string>();
  readonly #keep: ReadonlySet<string>;

  constructor(keep: Iterable<string>, target: ReadonlyMap<string, string> = new Map()) {
    this.#keep = new Set([...keep].map((id) => id.toLowerCase()));
    for (const [from, to] of target) this.#map.set(from.toLowerCase(), to);
  }

  /** The new id of `id` (made on first sight). */
  id(id: string): string {
    const key = id.toLowerCase();
    if (this.#keep.has(key)) return id;
    let mapped = this.#map.get(key);
    if (mapped === undefined) {
      mapped = randomUUID();
      this.#map.set(key, mapped);
    }
    return mapped;
  }

  /** `text` with every UUID in it remapped. */
  text(text: string): string {
    return text.replace(UUID, (id) => this.id(id));
  }

  /** A row with every string value remapped (JSON columns included: they are strings). */
  row(row: Row): Row {
    const result: Row = {};
    for (const [key, value] of Object.entries(row)) {
      result[key] = typeof value === 'string' ? this.text(value) : value;
    }
    return result;
  }
}

/** A row's values as the database takes them: only scalars. */
function insertable(table: string, row: Row): Row {
  for (const [key, value] of Object.entries(row)) {
    if (value !== null && !['string', 'number', 'bigint', 'boolean'].includes(typeof value)) {
      throw new ApiError(
        'ARCHIVE_INVALID',
        `The archive's ${table} rows hold a value the database cannot store.`,
        {
          details: { table, column: key },
        },
      );
    }
  }
  return row;
}

/**
 * Inserts rows in batches (PostgreSQL caps bind parameters per statement at 65,535).
 *
 * @example
 * await insertRows(transaction, 'events', rows);
 */
export async function insertRows(
  transaction: Transaction<Schema>,
  table: keyof Schema,
  rows: readonly Row[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Math.max(1, Object.keys(rows[0] ?? {}).length);
  const batch = Math.max(1, Math.floor(30_000 / columns));
  for (let start = 0; start < rows.length; start += batch) {
    const slice = rows.slice(start, start + batch).map((row) => insertable(table, row));
    await transaction
      .insertInto(table)
      .values(slice as never)
      .execute();
  }
}
