import type { Kysely, Selectable } from 'kysely';
import type { Schema, UploadsTable } from '../database/index.ts';
import { notFound } from '../errors/index.ts';

export type UploadRow = Selectable<UploadsTable>;

/** An upload as the API shows it. */
export interface UploadView {
  id: string;
  name: string;
  media_type: string;
  size: number;
  sha256: string;
  project_id: string | null;
  conversation_id: string | null;
  created_at: string;
}

export function uploadViewOfRow(row: UploadRow): UploadView {
  return {
    id: row.id,
    name: row.name,
    media_type: row.media_type,
    size: row.size,
    sha256: row.sha256,
    project_id: row.project_id,
    conversation_id: row.conversation_id,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/**
 * Upload metadata; the bytes live in the object store.
 *
 * @example
 * const upload = await uploads.get(id);
 */
export class UploadRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async insert(row: UploadRow): Promise<void> {
    await this.#db.insertInto('uploads').values(row).execute();
  }

  async find(id: string): Promise<UploadRow | undefined> {
    return this.#db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async get(id: string): Promise<UploadRow> {
    const row = await this.find(id);
    if (row === undefined) throw notFound('upload', id);
    return row;
  }

  /** The files uploaded to a conversation (the agent's file tools may read them). */
  async ofConversation(conversationId: string): Promise<UploadRow[]> {
    return this.#db.selectFrom('uploads').selectAll().where('conversation_id', '=', conversationId).execute();
  }

  async delete(id: string): Promise<void> {
    await this.#db.deleteFrom('uploads').where('id', '=', id).execute();
  }
}
