import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import type { Schema } from '../database/index.ts';
import { ApiError } from '../errors/index.ts';

type Row = Record<string, unknown>;

/**
 * The tables that hold a conversation, in the order an import inserts them (foreign keys point
 * backwards). Each is read by its `conversation_id`, except `context_reports` (by the
 * conversation's runs), `artifact_versions` (by its artifacts) and `settings` (scope
 * `conversation`).
 */
export const CONVERSATION_TABLES = [
  'runs',
  'context_reports',
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
  'memory_candidates',
] as const;
export type ConversationTable = (typeof CONVERSATION_TABLES)[number];

/** The tables format version 2 added to a conversation's rows: a version 1 archive has none. */
const ADDED_IN_VERSION_2: ReadonlySet<ConversationTable> = new Set(['context_reports', 'memory_candidates']);

const rowsSchema = z.array(z.record(z.string(), z.unknown())).max(1_000_000);

/** One conversation's rows, as `conversations/<id>.json` holds them. */
export const conversationRowsSchema = z.object({
  conversation: z.record(z.string(), z.unknown()),
  tables: z.object(
    Object.fromEntries(
      CONVERSATION_TABLES.map((table) => [
        table,
        ADDED_IN_VERSION_2.has(table) ? rowsSchema.default([]) : rowsSchema,
      ]),
    ) as Record<ConversationTable, typeof rowsSchema>,
  ),
});
export type ConversationRows = z.infer<typeof conversationRowsSchema>;

/**
 * A memory row as `memories.json` holds it: the columns an import decides on are checked, the
 * rest goes to the database as it is (and fails the transaction there if it does not fit).
 */
const memoryRowSchema = z.looseObject({
  id: z.string().min(1),
  scope: z.enum(['user', 'project']),
  project_id: z.string().min(1).nullable(),
  source_run_id: z.string().nullable(),
  content: z.string(),
  tags: z.string(),
});

/** The memories of an archive (format version 2), as `memories.json` holds them. */
export const memoryRowsSchema = z.object({ memories: z.array(memoryRowSchema).max(1_000_000) });
export type MemoryRows = z.infer<typeof memoryRowsSchema>;

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
  redact: (text: string) => string,
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
  const byConversation = (
    table: Exclude<ConversationTable, 'artifact_versions' | 'context_reports' | 'settings'>,
  ) =>
    (db as unknown as Kysely<Record<string, { conversation_id: string }>>)
      .selectFrom(table)
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .execute() as Promise<Row[]>;
  const [runs, events, sessions, uploads, artifacts, tasks, usage, cards, audit, grants, boards, candidates] =
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
      db
        .selectFrom('memory_candidates')
        .selectAll()
        .where('conversation_id', '=', conversationId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    ]);
  const runIds = runs.map((run) => run.id);
  const reports =
    runIds.length === 0
      ? []
      : await db
          .selectFrom('context_reports')
          .selectAll()
          .where('run_id', 'in', runIds)
          .orderBy('run_id')
          .orderBy('call_index')
          .execute();
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
      context_reports: reports,
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
      // What the lightweight model proposed to remember: a memory never carries a secret.
      memory_candidates: candidates.map((candidate) => ({
        ...candidate,
        content: redact(candidate.content),
      })),
    },
  };
}

/**
 * The memories an archive carries: the user's when `user` (the whole-instance archive) and those
 * of `projectIds`. A memory row holds no secret column, but its text is the user's or a model's:
 * `redact` takes out every known secret and key-shaped string, and the owner is left out like
 * everywhere else.
 *
 * @example
 * const rows = await readMemoryRows(db, { user: false, projectIds: [projectId] }, redact);
 */
export async function readMemoryRows(
  db: Kysely<Schema>,
  selection: { user: boolean; projectIds: readonly string[] },
  redact: (text: string) => string,
): Promise<MemoryRows> {
  const ids = [...selection.projectIds];
  if (!selection.user && ids.length === 0) return { memories: [] };
  const rows = await db
    .selectFrom('memories')
    .selectAll()
    .where((eb) => {
      const user = eb('scope', '=', 'user');
      if (ids.length === 0) return user;
      const ofProjects = eb.and([eb('scope', '=', 'project'), eb('project_id', 'in', ids)]);
      return selection.user ? eb.or([user, ofProjects]) : ofProjects;
    })
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return {
    memories: rows.map((row) => ({
      ...row,
      owner: null,
      content: redact(row.content),
      tags: JSON.stringify((JSON.parse(row.tags) as string[]).map(redact)),
    })),
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
