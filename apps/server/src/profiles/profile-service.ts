import { randomUUID } from 'node:crypto';
import {
  AgentProfileSchema,
  DEFAULT_PROFILE_ID,
  PROFILE_FILE_FORMAT,
  ProfileFileSchema,
  ProfileInputSchema,
  type AgentProfile,
  type ProfileFile,
  type ProfileInput,
  type ProfilePatch,
} from '@youyou/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { ProfilesTable, Schema } from '../database/index.ts';
import { ApiError, notFound } from '../errors/index.ts';

/** Unix epoch: the built-in profile has always been there. */
const BUILTIN_TIME = new Date(0).toISOString();

/**
 * The built-in profile, the T0 baseline (spec §4.1 rule 5): the global instructions, the chat
 * model, every tool, no extra limits. It cannot be changed or deleted; duplicate it to customise.
 */
export const DEFAULT_PROFILE: AgentProfile = Object.freeze({
  id: DEFAULT_PROFILE_ID,
  name: 'General assistant',
  description: 'The built-in baseline: your global instructions, the chat model, every tool.',
  builtin: true,
  systemPrompt: '',
  model: { router: 'chat' as const },
  parameters: {},
  tools: { allow: ['*'], deny: [], confirm: [] },
  context: { policy: 'default' as const },
  hitl: { askOnAmbiguity: true, timeoutSec: null },
  budget: {},
  created_at: BUILTIN_TIME,
  updated_at: BUILTIN_TIME,
});

function profileOfRow(row: Selectable<ProfilesTable>): AgentProfile {
  const definition = ProfileInputSchema.parse(JSON.parse(row.definition));
  return {
    ...definition,
    name: row.name,
    id: row.id,
    builtin: false,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

function inputOf(profile: AgentProfile): ProfileInput {
  const { id: _id, builtin: _builtin, created_at: _created, updated_at: _updated, ...input } = profile;
  return input;
}

/** zod's complaints as the `details.problems` of an INVALID_INPUT. */
function problemsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  return issues.slice(0, 50).map((issue) => ({
    path: `/${issue.path.map(String).join('/')}`,
    message: issue.message,
  }));
}

/**
 * The error for a profile zod refused: CONTEXT_SHARES_INVALID when its slot shares are the problem
 * (out of 0–1, or more than the whole budget together), else INVALID_INPUT.
 */
function invalidProfile(
  issues: readonly { path: readonly PropertyKey[]; message: string; params?: unknown }[],
  message: string,
  details: Record<string, unknown> = {},
): ApiError {
  const shares = issues.filter(
    (issue) => (issue.params as { code?: unknown } | undefined)?.code === 'CONTEXT_SHARES_INVALID',
  );
  if (shares.length > 0) {
    return new ApiError(
      'CONTEXT_SHARES_INVALID',
      `The context slot shares are not valid: ${shares.map((issue) => issue.message).join('; ')}.`,
      { details: { ...details, problems: problemsOf(shares) } },
    );
  }
  return new ApiError('INVALID_INPUT', message, { details: { ...details, problems: problemsOf(issues) } });
}

/**
 * Agent profiles (spec §4.7): the built-in default and the user's own, created, edited,
 * duplicated, deleted, imported and exported as JSON. An import is checked whole before anything
 * is stored: a bad file is one structured error and imports nothing.
 *
 * @example
 * const reviewer = await profiles.create({ ...DEFAULT_PROFILE, name: 'Reviewer', systemPrompt: 'Review code.' });
 * const file = await profiles.export([reviewer.id]);
 */
export class ProfileService {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async list(): Promise<AgentProfile[]> {
    const rows = await this.#db.selectFrom('profiles').selectAll().orderBy('name').orderBy('id').execute();
    return [DEFAULT_PROFILE, ...rows.map(profileOfRow)];
  }

  async find(id: string): Promise<AgentProfile | undefined> {
    if (id === DEFAULT_PROFILE_ID) return DEFAULT_PROFILE;
    const row = await this.#db.selectFrom('profiles').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : profileOfRow(row);
  }

  async get(id: string): Promise<AgentProfile> {
    const profile = await this.find(id);
    if (profile === undefined) throw notFound('profile', id);
    return profile;
  }

  async create(input: ProfileInput): Promise<AgentProfile> {
    const [created] = await this.#insert([input]);
    return created as AgentProfile;
  }

  async update(id: string, patch: ProfilePatch): Promise<AgentProfile> {
    const current = await this.get(id);
    if (current.builtin) {
      throw new ApiError(
        'CONFLICT',
        'The built-in profile cannot be changed; duplicate it and edit the copy.',
        {
          details: { profile_id: id, builtin: true },
        },
      );
    }
    const parsed = ProfileInputSchema.safeParse({ ...inputOf(current), ...patch });
    if (!parsed.success) throw invalidProfile(parsed.error.issues, 'The profile is not valid.');
    await this.#db
      .updateTable('profiles')
      .set({ name: parsed.data.name, definition: JSON.stringify(parsed.data), updated_at: Date.now() })
      .where('id', '=', id)
      .execute();
    return this.get(id);
  }

  async duplicate(id: string, name?: string): Promise<AgentProfile> {
    const source = await this.get(id);
    return this.create({ ...inputOf(source), name: name ?? `${source.name} (copy)` });
  }

  /** Deletes a profile; its conversations fall back to the built-in one. */
  async delete(id: string): Promise<void> {
    const profile = await this.get(id);
    if (profile.builtin) {
      throw new ApiError('CONFLICT', 'The built-in profile cannot be deleted.', {
        details: { profile_id: id, builtin: true },
      });
    }
    await this.#db.transaction().execute(async (transaction) => {
      await transaction
        .updateTable('conversations')
        .set({ profile_id: null })
        .where('profile_id', '=', id)
        .execute();
      await transaction.deleteFrom('profiles').where('id', '=', id).execute();
    });
  }

  /** The file `import` reads: the chosen profiles (or all the user's), without ids. */
  async export(ids?: readonly string[]): Promise<ProfileFile> {
    const profiles =
      ids === undefined
        ? (await this.list()).filter((profile) => !profile.builtin)
        : await Promise.all(ids.map((id) => this.get(id)));
    if (profiles.length === 0) {
      throw new ApiError('INVALID_INPUT', 'There is no profile of yours to export yet.', {
        details: { reason: 'nothing_to_export' },
      });
    }
    return { format: PROFILE_FILE_FORMAT, version: 1, profiles: profiles.map(inputOf) };
  }

  /**
   * Imports a profile file (or one bare profile). Everything is checked first; a file that is not
   * JSON, not a profile file, or holds one bad profile is INVALID_INPUT with where and why, and
   * nothing is stored. Names already taken get " (imported)".
   */
  async import(content: unknown): Promise<AgentProfile[]> {
    let data = content;
    if (typeof content === 'string') {
      try {
        data = JSON.parse(content);
      } catch (error) {
        throw new ApiError('INVALID_INPUT', 'The file is not JSON.', {
          details: { reason: 'not_json', message: error instanceof Error ? error.message : String(error) },
        });
      }
    }
    // A single exported profile (with or without ids) is accepted as a file of one.
    const candidate =
      data !== null && typeof data === 'object' && !('format' in data) && 'systemPrompt' in data
        ? { format: PROFILE_FILE_FORMAT, version: 1, profiles: [data] }
        : data;
    const parsed = ProfileFileSchema.safeParse(candidate);
    if (!parsed.success) {
      throw invalidProfile(
        parsed.error.issues,
        `This is not a profile file: ${parsed.error.issues[0]?.message ?? 'invalid'}.`,
        { reason: 'invalid_profile_file' },
      );
    }
    const taken = new Set((await this.list()).map((profile) => profile.name));
    const inputs = parsed.data.profiles.map((profile) => {
      let name = profile.name;
      while (taken.has(name)) name = `${name} (imported)`.slice(0, 80);
      taken.add(name);
      return { ...profile, name };
    });
    return this.#insert(inputs);
  }

  async #insert(inputs: readonly ProfileInput[]): Promise<AgentProfile[]> {
    const rows: Selectable<ProfilesTable>[] = [];
    for (const input of inputs) {
      const parsed = ProfileInputSchema.safeParse(input);
      if (!parsed.success) throw invalidProfile(parsed.error.issues, 'The profile is not valid.');
      const now = Date.now();
      rows.push({
        id: randomUUID(),
        owner: null,
        name: parsed.data.name,
        definition: JSON.stringify(parsed.data),
        created_at: now,
        updated_at: now,
      });
    }
    await this.#db.transaction().execute(async (transaction) => {
      for (const row of rows) await transaction.insertInto('profiles').values(row).execute();
    });
    return rows.map((row) => AgentProfileSchema.parse(profileOfRow(row)));
  }
}
