import type { ArchiveImportResult } from '@youyou/contracts';
import { strToU8 } from 'fflate';
import type { z } from 'zod';
import { IN_FLIGHT_STATUSES } from '../database/index.ts';
import { ApiError } from '../errors/index.ts';
import type { ConversationRows, IdRemapper } from './archive-rows.ts';

/** The archive's entries and the small reads and writes of them the service shares. */

type Row = Record<string, unknown>;

export const PROJECTS_PATH = 'projects.json';
export const MEMORIES_PATH = 'memories.json';
export const conversationPath = (id: string) => `conversations/${id}.json`;
export const uploadObjectPath = (id: string) => `objects/uploads/${id}`;

/** A project row of an archive as the name check reads it. */
export const projectNameOf = (row: Row) => ({ source_id: String(row['id']), name: String(row['name']) });

export function slug(title: string, fallback: string): string {
  const made = title
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return made === '' ? fallback : made;
}

export function jsonBytes(value: unknown): Uint8Array {
  return strToU8(JSON.stringify(value));
}

export function parseEntry<Schema extends z.ZodType>(
  schema: Schema,
  bytes: Uint8Array,
  path: string,
): z.infer<Schema> {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new ApiError('ARCHIVE_INVALID', `The archive entry “${path}” is not JSON.`, { details: { path } });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new ApiError('ARCHIVE_INVALID', `The archive entry “${path}” does not hold the rows it should.`, {
      details: { path, issues: parsed.error.issues.slice(0, 5).map((issue) => issue.path.join('.')) },
    });
  }
  return parsed.data;
}

/** A run exported while it ran arrives ended: no server executes it here (spec §4.2). */
export function settledRun(row: Row, now: number): Row {
  if (!(IN_FLIGHT_STATUSES as ReadonlySet<unknown>).has(row['status'])) return row;
  return {
    ...row,
    status: 'interrupted',
    phase: 'done',
    ended_at: row['ended_at'] ?? now,
    cancel_requested: 0,
  };
}

export function importedConversations(
  conversations: readonly ConversationRows[],
  remap: IdRemapper,
): ArchiveImportResult['conversations'] {
  return conversations.map((rows) => ({
    id: remap.id(String(rows.conversation['id'])),
    title: String(rows.conversation['title']),
    source_id: String(rows.conversation['id']),
  }));
}
