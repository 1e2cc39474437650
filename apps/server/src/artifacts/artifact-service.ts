import { createHash, randomUUID } from 'node:crypto';
import type {
  Artifact,
  ArtifactChange,
  ArtifactDiff,
  ArtifactEdit,
  ArtifactKind,
  ArtifactVersion,
} from '@youyou/contracts';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { ArtifactsTable, ArtifactVersionsTable, Schema, WorkbenchDatabase } from '../database/index.ts';
import { ApiError, notFound } from '../errors/index.ts';
import type { EventLog, NewEvent } from '../events/index.ts';
import type { UploadRow } from '../storage/index.ts';
import { diffTexts } from './artifact-diff.ts';
import { applyEdits } from './artifact-edits.ts';

type ArtifactRow = Selectable<ArtifactsTable>;
type VersionRow = Selectable<ArtifactVersionsTable>;
export type WritableArtifactKind = Exclude<ArtifactKind, 'upload'>;

/** The largest artifact version (the same cap as a tool result the agent may produce). */
export const MAX_ARTIFACT_BYTES = 4 * 1024 * 1024;
const MAX_TITLE = 200;

const MEDIA_TYPES: Record<WritableArtifactKind, string> = {
  markdown: 'text/markdown',
  code: 'text/plain',
  html: 'text/html',
  svg: 'image/svg+xml',
  mermaid: 'text/vnd.mermaid',
  csv: 'text/csv',
  json: 'application/json',
  text: 'text/plain',
};

const EXTENSIONS: Record<WritableArtifactKind, string> = {
  markdown: '.md',
  code: '.txt',
  html: '.html',
  svg: '.svg',
  mermaid: '.mmd',
  csv: '.csv',
  json: '.json',
  text: '.txt',
};

const CODE_EXTENSIONS: Readonly<Record<string, string>> = {
  typescript: '.ts',
  ts: '.ts',
  tsx: '.tsx',
  javascript: '.js',
  js: '.js',
  jsx: '.jsx',
  python: '.py',
  py: '.py',
  rust: '.rs',
  go: '.go',
  java: '.java',
  c: '.c',
  cpp: '.cpp',
  'c++': '.cpp',
  csharp: '.cs',
  ruby: '.rb',
  php: '.php',
  shell: '.sh',
  bash: '.sh',
  sh: '.sh',
  sql: '.sql',
  yaml: '.yaml',
  toml: '.toml',
  css: '.css',
  kotlin: '.kt',
  swift: '.swift',
};

function lineCount(content: string): number {
  if (content === '') return 0;
  let lines = 1;
  for (let at = content.indexOf('\n'); at !== -1; at = content.indexOf('\n', at + 1)) lines++;
  return content.endsWith('\n') ? lines - 1 : lines;
}

function artifactOfRow(row: ArtifactRow): Artifact {
  return {
    id: row.id,
    conversation_id: row.conversation_id,
    project_id: row.project_id,
    run_id: row.run_id,
    title: row.name,
    kind: row.kind as ArtifactKind,
    language: row.language,
    media_type: row.media_type,
    version: row.version,
    size: row.size,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

function artifactOfUpload(row: UploadRow): Artifact {
  const at = new Date(row.created_at).toISOString();
  return {
    id: row.id,
    conversation_id: row.conversation_id,
    project_id: row.project_id,
    run_id: null,
    title: row.name,
    kind: 'upload',
    language: null,
    media_type: row.media_type,
    version: 1,
    size: row.size,
    created_at: at,
    updated_at: at,
  };
}

function versionOfRow(row: VersionRow, withContent: boolean): ArtifactVersion {
  return {
    id: row.id,
    artifact_id: row.artifact_id,
    version: row.version,
    change: row.change as ArtifactChange,
    run_id: row.run_id,
    size: row.size,
    sha256: row.sha256,
    lines: row.lines,
    created_at: new Date(row.created_at).toISOString(),
    ...(withContent ? { content: row.content } : {}),
  };
}

/** Where a run writes: its conversation, project, and the assistant message it belongs to. */
export interface RunScope {
  runId: string;
  conversationId: string;
  projectId: string | null;
  /** The top-level run (the assistant message) whose turn this is. */
  messageId: string;
}

export interface CreateArtifactRequest {
  title: string;
  kind: WritableArtifactKind;
  language?: string | undefined;
  content: string;
  callId?: string | undefined;
  overflowOf?: { call_id: string; tool_name: string; bytes: number };
}

export interface UpdateArtifactRequest {
  /** An id or an exact title in the run's conversation. */
  reference: string;
  content?: string | undefined;
  edits?: readonly ArtifactEdit[] | undefined;
  callId?: string | undefined;
}

export interface UpdateResult {
  artifact: Artifact;
  version: ArtifactVersion;
  added: number;
  removed: number;
}

/** A line range of one version, for `read_artifact`. */
export interface ArtifactExcerpt {
  artifact: Artifact;
  version: number;
  from: number;
  to: number;
  total_lines: number;
  text: string;
}

/**
 * Artifacts (spec §4.3): documents the agent writes, each change a new version kept whole, so any
 * two versions diff. Writes go through the conversation's ordered writer, so `artifact.created`
 * and `artifact.updated` land in the log right after the tool call that made them. Uploads are
 * listed beside them as kind `upload`.
 *
 * @example
 * const artifact = await artifacts.create(await artifacts.scopeOf(runId), { title: 'plan.md', kind: 'markdown', content });
 * await artifacts.update(scope, { reference: artifact.id, edits: [{ find: 'draft', replace: 'final' }] });
 */
/** What `ArtifactService.onChange` listeners hear: an artifact was written or deleted. */
export type ArtifactChangeNotice =
  { type: 'written'; artifactId: string; version: number } | { type: 'deleted'; artifactId: string };

export class ArtifactService {
  readonly #database: WorkbenchDatabase;
  readonly #changeListeners = new Set<(change: ArtifactChangeNotice) => void>();
  readonly #eventLog: EventLog;
  /** One update at a time per artifact, so versions follow each other (edits read the newest). */
  readonly #locks = new Map<string, Promise<unknown>>();
  /** The diffs updates just computed: the viewer asks for the newest one next (versions never change). */
  readonly #recentDiffs = new Map<string, ArtifactDiff>();
  /** The newest text of recently changed artifacts, so an edit does not read a large one back. */
  readonly #newest = new Map<string, { version: number; content: string }>();

  constructor(options: { database: WorkbenchDatabase; eventLog: EventLog }) {
    this.#database = options.database;
    this.#eventLog = options.eventLog;
  }

  /**
   * Calls `listener` after each create, update and delete is stored (the knowledge index follows
   * artifacts this way); returns the unsubscribe.
   */
  onChange(listener: (change: ArtifactChangeNotice) => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  #notify(change: ArtifactChangeNotice): void {
    for (const listener of this.#changeListeners) listener(change);
  }

  get #db(): Kysely<Schema> {
    return this.#database.db;
  }

  /** The conversation and message a run writes into (a sub-agent's: its root run's). */
  async scopeOf(runId: string): Promise<RunScope> {
    const run = await this.#db
      .selectFrom('runs')
      .select(['id', 'conversation_id', 'project_id', 'parent_run_id'])
      .where('id', '=', runId)
      .executeTakeFirst();
    if (run === undefined) throw notFound('run', runId);
    let messageId = run.id;
    if (run.parent_run_id !== null) {
      const task = await this.#db
        .selectFrom('subagent_tasks')
        .select('root_run_id')
        .where('run_id', '=', runId)
        .executeTakeFirst();
      messageId = task?.root_run_id ?? run.parent_run_id;
    }
    return { runId, conversationId: run.conversation_id, projectId: run.project_id, messageId };
  }

  async create(scope: RunScope, request: CreateArtifactRequest): Promise<Artifact> {
    const title = this.#checkTitle(request.title);
    this.#checkContent(request.content);
    const existing = await this.#byTitle(scope.conversationId, title);
    if (existing !== undefined) {
      throw new ApiError(
        'NAME_CONFLICT',
        `This conversation already has an artifact titled ${JSON.stringify(title)} (${existing.id}); change it with update_artifact or pick another title.`,
        { details: { artifact_id: existing.id, title } },
      );
    }
    const now = Date.now();
    const language =
      request.kind === 'code' ? (request.language?.trim().toLowerCase() ?? 'text') || 'text' : null;
    const row: ArtifactRow = {
      id: randomUUID(),
      owner: null,
      conversation_id: scope.conversationId,
      project_id: scope.projectId,
      run_id: scope.runId,
      name: title,
      kind: request.kind,
      language,
      media_type: MEDIA_TYPES[request.kind],
      storage_path: '',
      version: 1,
      size: Buffer.byteLength(request.content),
      created_at: now,
      updated_at: now,
    };
    const version = this.#versionRow(row.id, 1, 'create', scope.runId, request.content, now);
    const artifact = artifactOfRow(row);
    const event: NewEvent = {
      run_id: scope.runId,
      type: 'artifact.created',
      payload: {
        artifact,
        message_id: scope.messageId,
        ...(request.callId === undefined ? {} : { call_id: request.callId }),
        ...(request.overflowOf === undefined ? {} : { overflow_of: request.overflowOf }),
      },
    };
    await this.#eventLog.writer(scope.conversationId).append([event], async (transaction) => {
      await transaction.insertInto('artifacts').values(row).execute();
      await transaction.insertInto('artifact_versions').values(version).execute();
    });
    this.#remember(this.#newest, row.id, { version: 1, content: request.content }, 8);
    this.#notify({ type: 'written', artifactId: row.id, version: 1 });
    return artifact;
  }

  async update(scope: RunScope, request: UpdateArtifactRequest): Promise<UpdateResult> {
    if ((request.content === undefined) === (request.edits === undefined || request.edits.length === 0)) {
      throw new ApiError(
        'INVALID_INPUT',
        'Give either `content` (the whole new text) or `edits` (exact find → replace pairs), not both or neither.',
      );
    }
    const row = await this.#resolve(scope.conversationId, request.reference);
    return this.#serially(row.id, async () => {
      const cached = this.#newest.get(row.id);
      const current =
        cached !== undefined && cached.version === (await this.#versionNumber(row.id))
          ? cached
          : await this.#latest(row.id);
      const content =
        request.content ?? applyEdits(current.content, request.edits as readonly ArtifactEdit[]);
      this.#checkContent(content);
      if (content === current.content) {
        throw new ApiError(
          'INVALID_INPUT',
          'The update changes nothing: the new text equals the current one.',
          {
            details: { artifact_id: row.id, version: current.version },
          },
        );
      }
      const now = Date.now();
      const change: ArtifactChange = request.content === undefined ? 'edit' : 'replace';
      const next = this.#versionRow(row.id, current.version + 1, change, scope.runId, content, now);
      const diff = diffTexts({
        artifactId: row.id,
        title: row.name,
        from: current.version,
        to: next.version,
        before: current.content,
        after: content,
      });
      const { added, removed } = diff;
      const updated: ArtifactRow = { ...row, version: next.version, size: next.size, updated_at: now };
      const artifact = artifactOfRow(updated);
      const event: NewEvent = {
        run_id: scope.runId,
        type: 'artifact.updated',
        payload: {
          artifact,
          message_id: scope.messageId,
          ...(request.callId === undefined ? {} : { call_id: request.callId }),
          change,
          added,
          removed,
        },
      };
      await this.#eventLog.writer(scope.conversationId).append([event], async (transaction) => {
        await transaction.insertInto('artifact_versions').values(next).execute();
        await transaction
          .updateTable('artifacts')
          .set({ version: next.version, size: next.size, updated_at: now })
          .where('id', '=', row.id)
          .execute();
      });
      this.#rememberDiff(diff);
      this.#remember(this.#newest, row.id, { version: next.version, content }, 8);
      this.#notify({ type: 'written', artifactId: row.id, version: next.version });
      return { artifact, version: versionOfRow(next, false), added, removed };
    });
  }

  /** Lines `from`–`to` (1-based, inclusive) of a version (default: the newest). */
  async read(
    conversationId: string,
    reference: string,
    range: { from?: number | undefined; to?: number | undefined; version?: number | undefined } = {},
  ): Promise<ArtifactExcerpt> {
    const row = await this.#resolve(conversationId, reference);
    const version =
      range.version === undefined
        ? await this.#latest(row.id)
        : await this.#versionRowOf(row.id, range.version);
    const lines = version.content.split('\n');
    if (version.content.endsWith('\n')) lines.pop();
    const from = Math.max(1, Math.floor(range.from ?? 1));
    const to = Math.min(lines.length, Math.floor(range.to ?? lines.length));
    if (lines.length > 0 && from > lines.length) {
      throw new ApiError(
        'INVALID_INPUT',
        `Line ${from} is past the end: version ${version.version} has ${lines.length} lines.`,
        { details: { artifact_id: row.id, total_lines: lines.length } },
      );
    }
    return {
      artifact: artifactOfRow(row),
      version: version.version,
      from,
      to,
      total_lines: lines.length,
      text: lines.slice(from - 1, to).join('\n'),
    };
  }

  /** Artifacts and uploads of a conversation or a project, newest first. */
  async list(filter: { conversationId: string } | { projectId: string }): Promise<Artifact[]> {
    let artifacts = this.#db.selectFrom('artifacts').selectAll();
    let uploads = this.#db.selectFrom('uploads').selectAll();
    if ('conversationId' in filter) {
      artifacts = artifacts.where('conversation_id', '=', filter.conversationId);
      uploads = uploads.where('conversation_id', '=', filter.conversationId);
    } else {
      const inProject = this.#db
        .selectFrom('conversations')
        .select('id')
        .where('project_id', '=', filter.projectId);
      artifacts = artifacts.where((expression) =>
        expression.or([
          expression('project_id', '=', filter.projectId),
          expression('conversation_id', 'in', inProject),
        ]),
      );
      uploads = uploads.where((expression) =>
        expression.or([
          expression('project_id', '=', filter.projectId),
          expression('conversation_id', 'in', inProject),
        ]),
      );
    }
    const [written, uploaded] = await Promise.all([artifacts.execute(), uploads.execute()]);
    return [...written.map(artifactOfRow), ...uploaded.map(artifactOfUpload)].sort(
      (a, b) => b.updated_at.localeCompare(a.updated_at) || b.id.localeCompare(a.id),
    );
  }

  /** An artifact or an upload by id. */
  async get(id: string): Promise<Artifact> {
    const row = await this.#find(id);
    if (row !== undefined) return artifactOfRow(row);
    const upload = await this.#db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
    if (upload === undefined) throw notFound('artifact', id);
    return artifactOfUpload(upload);
  }

  async versions(id: string): Promise<ArtifactVersion[]> {
    const artifact = await this.get(id);
    if (artifact.kind === 'upload') return [];
    const rows = await this.#db
      .selectFrom('artifact_versions')
      .selectAll()
      .where('artifact_id', '=', id)
      .orderBy('version')
      .execute();
    return rows.map((row) => versionOfRow(row, false));
  }

  async version(id: string, version: number): Promise<ArtifactVersion> {
    await this.#written(id);
    return versionOfRow(await this.#versionRowOf(id, version), true);
  }

  /**
   * The diff between two versions of one artifact. `from` and `to` are version numbers or version
   * ids; a version id of another artifact is ARTIFACT_VERSION_MISMATCH.
   */
  async diff(id: string, from: string, to: string): Promise<ArtifactDiff> {
    const recent = this.#recentDiffs.get(`${id}:${from}:${to}`);
    if (recent !== undefined) return recent;
    const row = await this.#written(id);
    const [before, after] = await Promise.all([this.#versionByKey(row, from), this.#versionByKey(row, to)]);
    return diffTexts({
      artifactId: id,
      title: row.name,
      from: before.version,
      to: after.version,
      before: before.content,
      after: after.content,
    });
  }

  /** What to send for a download: the newest (or a given) version's text, or an upload's location. */
  async download(
    id: string,
    version?: number,
  ): Promise<
    | { kind: 'text'; name: string; mediaType: string; content: string }
    | { kind: 'upload'; name: string; mediaType: string; storagePath: string }
  > {
    const row = await this.#find(id);
    if (row === undefined) {
      const upload = await this.#db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
      if (upload === undefined) throw notFound('artifact', id);
      return {
        kind: 'upload',
        name: upload.name,
        mediaType: upload.media_type,
        storagePath: upload.storage_path,
      };
    }
    const content = (version === undefined ? await this.#latest(id) : await this.#versionRowOf(id, version))
      .content;
    return { kind: 'text', name: this.#fileName(row), mediaType: row.media_type, content };
  }

  /** Deletes an artifact with every version (an upload: its row; the caller removes its bytes). */
  async delete(id: string): Promise<{ upload?: UploadRow }> {
    for (const key of [...this.#recentDiffs.keys()])
      if (key.startsWith(`${id}:`)) this.#recentDiffs.delete(key);
    const row = await this.#find(id);
    if (row === undefined) {
      const upload = await this.#db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
      if (upload === undefined) throw notFound('artifact', id);
      await this.#db.deleteFrom('uploads').where('id', '=', id).execute();
      return { upload };
    }
    await this.#eventLog
      .writer(row.conversation_id)
      .append(
        [{ run_id: null, type: 'artifact.deleted', payload: { artifact_id: id } }],
        async (transaction: Transaction<Schema>) => {
          await transaction.deleteFrom('artifact_versions').where('artifact_id', '=', id).execute();
          await transaction.deleteFrom('artifacts').where('id', '=', id).execute();
        },
      );
    this.#notify({ type: 'deleted', artifactId: id });
    return {};
  }

  /** Artifacts a run wrote (a sub-agent's result links them). */
  async writtenBy(runId: string): Promise<Artifact[]> {
    const rows = await this.#db
      .selectFrom('artifacts')
      .selectAll()
      .where('run_id', '=', runId)
      .orderBy('created_at')
      .execute();
    return rows.map(artifactOfRow);
  }

  /** Resolves an id or an exact title in a conversation; NOT_FOUND names what was looked for. */
  async resolve(conversationId: string, reference: string): Promise<Artifact> {
    return artifactOfRow(await this.#resolve(conversationId, reference));
  }

  async #resolve(conversationId: string, reference: string): Promise<ArtifactRow> {
    const byId = await this.#find(reference);
    if (byId !== undefined && byId.conversation_id === conversationId) return byId;
    const byTitle = await this.#byTitle(conversationId, reference.trim());
    if (byTitle !== undefined) return byTitle;
    throw new ApiError(
      'NOT_FOUND',
      `No artifact with the id or title ${JSON.stringify(reference)} in this conversation.`,
      { details: { resource: 'artifact', id: reference } },
    );
  }

  async #find(id: string): Promise<ArtifactRow | undefined> {
    return this.#db.selectFrom('artifacts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async #written(id: string): Promise<ArtifactRow> {
    const row = await this.#find(id);
    if (row !== undefined) return row;
    const upload = await this.#db.selectFrom('uploads').select('id').where('id', '=', id).executeTakeFirst();
    if (upload !== undefined) {
      throw new ApiError(
        'INVALID_INPUT',
        'An upload has one version and no text to diff; download it instead.',
        {
          details: { artifact_id: id, kind: 'upload' },
        },
      );
    }
    throw notFound('artifact', id);
  }

  async #byTitle(conversationId: string, title: string): Promise<ArtifactRow | undefined> {
    return this.#db
      .selectFrom('artifacts')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('name', '=', title)
      .orderBy('created_at')
      .executeTakeFirst();
  }

  async #latest(id: string): Promise<VersionRow> {
    const row = await this.#db
      .selectFrom('artifact_versions')
      .selectAll()
      .where('artifact_id', '=', id)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (row === undefined) throw notFound('artifact', id);
    return row;
  }

  async #versionRowOf(id: string, version: number): Promise<VersionRow> {
    const row = await this.#db
      .selectFrom('artifact_versions')
      .selectAll()
      .where('artifact_id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    if (row === undefined) {
      throw new ApiError('NOT_FOUND', `Artifact ${id} has no version ${version}.`, {
        details: { resource: 'artifact_version', id, version },
      });
    }
    return row;
  }

  async #versionByKey(row: ArtifactRow, key: string): Promise<VersionRow> {
    if (/^\d+$/.test(key)) return this.#versionRowOf(row.id, Number(key));
    const version = await this.#db
      .selectFrom('artifact_versions')
      .selectAll()
      .where('id', '=', key)
      .executeTakeFirst();
    if (version === undefined) {
      throw new ApiError('NOT_FOUND', `No artifact version has id ${key}.`, {
        details: { resource: 'artifact_version', id: key },
      });
    }
    if (version.artifact_id !== row.id) {
      throw new ApiError(
        'ARTIFACT_VERSION_MISMATCH',
        `Version ${key} belongs to artifact ${version.artifact_id}, not ${row.id}: only versions of one artifact can be diffed.`,
        { details: { artifact_id: row.id, version_id: key, version_artifact_id: version.artifact_id } },
      );
    }
    return version;
  }

  #rememberDiff(diff: ArtifactDiff): void {
    this.#remember(this.#recentDiffs, `${diff.artifact_id}:${String(diff.from)}:${String(diff.to)}`, diff);
  }

  /** A small cache of the newest entries. */
  #remember<T>(cache: Map<string, T>, key: string, value: T, limit = 16): void {
    cache.delete(key);
    cache.set(key, value);
    while (cache.size > limit) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
  }

  /** The newest version number, read without the text (another server may have written one). */
  async #versionNumber(id: string): Promise<number | undefined> {
    const row = await this.#db
      .selectFrom('artifacts')
      .select('version')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.version;
  }

  #versionRow(
    artifactId: string,
    version: number,
    change: ArtifactChange,
    runId: string | null,
    content: string,
    now: number,
  ): VersionRow {
    return {
      id: randomUUID(),
      artifact_id: artifactId,
      version,
      change,
      run_id: runId,
      content,
      size: Buffer.byteLength(content),
      lines: lineCount(content),
      sha256: createHash('sha256').update(content).digest('hex'),
      created_at: now,
    };
  }

  #checkTitle(title: string): string {
    const trimmed = title.trim();
    if (
      trimmed === '' ||
      trimmed.length > MAX_TITLE ||
      [...trimmed].some((character) => character.charCodeAt(0) < 0x20)
    ) {
      throw new ApiError(
        'INVALID_INPUT',
        `An artifact title is 1–${MAX_TITLE} characters without control characters.`,
        { details: { title } },
      );
    }
    return trimmed;
  }

  #checkContent(content: string): void {
    if (content.includes('\u0000')) {
      throw new ApiError('INVALID_INPUT', 'Artifact text cannot contain NUL characters.');
    }
    const size = Buffer.byteLength(content);
    if (size > MAX_ARTIFACT_BYTES) {
      throw new ApiError('FILE_TOO_LARGE', `An artifact version is limited to ${MAX_ARTIFACT_BYTES} bytes.`, {
        details: { limit: MAX_ARTIFACT_BYTES, size },
      });
    }
  }

  #fileName(row: ArtifactRow): string {
    const kind = row.kind as WritableArtifactKind;
    const extension =
      kind === 'code' ? (CODE_EXTENSIONS[row.language ?? ''] ?? '.txt') : (EXTENSIONS[kind] ?? '.txt');
    return /\.[A-Za-z0-9]{1,8}$/.test(row.name) ? row.name : `${row.name}${extension}`;
  }

  async #serially<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#locks.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.#locks.set(key, settled);
    try {
      return await next;
    } finally {
      if (this.#locks.get(key) === settled) this.#locks.delete(key);
    }
  }
}
