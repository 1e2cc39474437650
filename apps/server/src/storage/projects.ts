import type { Kysely, Selectable } from 'kysely';
import type { ProjectsTable, Schema } from '../database/index.ts';
import { notFound } from '../errors/index.ts';

export type ProjectRow = Selectable<ProjectsTable>;

/** A project as the API shows it. */
export interface Project {
  id: string;
  name: string;
  directory: string | null;
  created_at: string;
  updated_at: string;
}

export function projectOfRow(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    directory: row.directory,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/**
 * Projects: named workspaces with an optional directory (the agent's cwd).
 *
 * @example
 * const project = await projects.create({ name: 'Docs', directory: '/home/me/docs' });
 */
export class ProjectRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async list(): Promise<ProjectRow[]> {
    return this.#db.selectFrom('projects').selectAll().orderBy('name').orderBy('id').execute();
  }

  async find(id: string): Promise<ProjectRow | undefined> {
    return this.#db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async get(id: string): Promise<ProjectRow> {
    const row = await this.find(id);
    if (row === undefined) throw notFound('project', id);
    return row;
  }

  async create(values: {
    id: string;
    name: string;
    directory: string | null;
    now: number;
  }): Promise<ProjectRow> {
    const row: ProjectRow = {
      id: values.id,
      owner: null,
      name: values.name,
      directory: values.directory,
      created_at: values.now,
      updated_at: values.now,
    };
    await this.#db.insertInto('projects').values(row).execute();
    return row;
  }

  async update(
    id: string,
    changes: { name?: string; directory?: string | null },
    now: number,
  ): Promise<ProjectRow> {
    const result = await this.#db
      .updateTable('projects')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw notFound('project', id);
    return this.get(id);
  }

  async countConversations(id: string): Promise<number> {
    const row = await this.#db
      .selectFrom('conversations')
      .select((expression) => expression.fn.countAll<number | string>().as('count'))
      .where('project_id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Deletes the project and, through the foreign keys, its conversations. */
  async delete(id: string): Promise<void> {
    const result = await this.#db.deleteFrom('projects').where('id', '=', id).executeTakeFirst();
    if (result.numDeletedRows === 0n) throw notFound('project', id);
  }
}
