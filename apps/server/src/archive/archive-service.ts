import {
  archiveImportOptionsSchema,
  type ArchiveImportPreview,
  type ArchiveImportResult,
  type ArchiveManifest,
  type ArchiveScope,
} from '@youyou/contracts';
import { strToU8 } from 'fflate';
import { conversationMarkdown, exportConversation } from '../conversations/index.ts';
import type { WorkbenchDatabase } from '../database/index.ts';
import { ApiError } from '../errors/index.ts';
import { namespaceOf } from '../memory/index.ts';
import { redactKeyShaped } from '../security/index.ts';
import { conversationOfRow, type ConversationRow, type ObjectStore } from '../storage/index.ts';
import {
  CONVERSATION_TABLES,
  conversationRowsSchema,
  IdRemapper,
  insertRows,
  memoryRowsSchema,
  projectRowsSchema,
  readConversationRows,
  readMemoryRows,
  readProjectRows,
  type ConversationRows,
  type MemoryRows,
  type ProjectRows,
} from './archive-rows.ts';
import {
  conversationPath,
  importedConversations,
  jsonBytes,
  MEMORIES_PATH,
  parseEntry,
  projectNameOf,
  PROJECTS_PATH,
  settledRun,
  slug,
  uploadObjectPath,
} from './archive-entries.ts';
import { importNames } from './archive-names.ts';
import {
  DEFAULT_ARCHIVE_LIMITS,
  readArchive,
  writeArchive,
  type ArchiveFile,
  type ArchiveLimits,
} from './archive-zip.ts';

type Row = Record<string, unknown>;

/** What to export. */
export type ArchiveSelection =
  | { scope: 'conversation'; conversation_id: string }
  | { scope: 'project'; project_id: string }
  | { scope: 'everything' };

/** A made archive and a file name for it. */
export interface MadeArchive {
  bytes: Uint8Array;
  fileName: string;
  manifest: Pick<ArchiveManifest, 'scope' | 'projects' | 'conversations'>;
}

/**
 * Export and import archives (spec §4.16; format in `@youyou/contracts` `archive/`, decision
 * 0018). An export is a zip of rows, stored objects and Markdown with a checksummed manifest; an
 * import checks the whole archive first, gives every row a new id, and inserts everything in one
 * transaction — a bad archive is a structured error and leaves nothing behind.
 *
 * @example
 * const made = await archives.export({ scope: 'project', project_id });
 * const result = await archives.import(made.bytes, {});
 */
export class ArchiveService {
  readonly #database: WorkbenchDatabase;
  readonly #objects: ObjectStore;
  readonly #version: string;
  readonly #limits: ArchiveLimits;
  readonly #onUploadsImported: ((uploadIds: readonly string[]) => Promise<void>) | undefined;
  readonly #redact: (text: string) => string;

  constructor(options: {
    database: WorkbenchDatabase;
    objects: ObjectStore;
    version: string;
    limits?: Partial<ArchiveLimits>;
    /**
     * Called after an import commits, with the new uploads' ids. The parsed documents and the
     * knowledge index are derived data, so the archive does not carry them: the server parses the
     * imported files again, as it does new uploads, and they reach the knowledge index from there.
     */
    onUploadsImported?: (uploadIds: readonly string[]) => Promise<void>;
    /**
     * Takes every secret out of a memory's text before it is exported (the server's redactor:
     * the secrets it knows and every key-shaped string). Default: key-shaped strings only.
     */
    redact?: (text: string) => string;
  }) {
    this.#database = options.database;
    this.#objects = options.objects;
    this.#version = options.version;
    this.#limits = { ...DEFAULT_ARCHIVE_LIMITS, ...options.limits };
    this.#onUploadsImported = options.onUploadsImported;
    this.#redact = options.redact ?? redactKeyShaped;
  }

  get limits(): ArchiveLimits {
    return this.#limits;
  }

  async export(selection: ArchiveSelection): Promise<MadeArchive> {
    const { db } = this.#database;
    let conversations: ConversationRow[];
    let projectIds: string[];
    let fileName: string;
    if (selection.scope === 'conversation') {
      const row = await db
        .selectFrom('conversations')
        .selectAll()
        .where('id', '=', selection.conversation_id)
        .executeTakeFirst();
      if (row === undefined) {
        throw new ApiError('NOT_FOUND', `No conversation has id ${selection.conversation_id}.`, {
          details: { resource: 'conversation', id: selection.conversation_id },
        });
      }
      conversations = [row];
      projectIds = [];
      fileName = slug(row.title, 'conversation');
    } else if (selection.scope === 'project') {
      const project = await db
        .selectFrom('projects')
        .selectAll()
        .where('id', '=', selection.project_id)
        .executeTakeFirst();
      if (project === undefined) {
        throw new ApiError('NOT_FOUND', `No project has id ${selection.project_id}.`, {
          details: { resource: 'project', id: selection.project_id },
        });
      }
      conversations = await db
        .selectFrom('conversations')
        .selectAll()
        .where('project_id', '=', project.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      projectIds = [project.id];
      fileName = slug(project.name, 'project');
    } else {
      conversations = await db
        .selectFrom('conversations')
        .selectAll()
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      projectIds = (await db.selectFrom('projects').select('id').orderBy('created_at').execute()).map(
        (row) => row.id,
      );
      fileName = 'youyou-everything';
    }

    const files: ArchiveFile[] = [];
    const projectRows = await readProjectRows(db, projectIds);
    if (projectIds.length > 0)
      files.push({ path: PROJECTS_PATH, kind: 'projects', bytes: jsonBytes(projectRows) });
    // A project's memories travel with it; the user's only in the whole-instance archive.
    if (selection.scope !== 'conversation') {
      const memories = await readMemoryRows(
        db,
        { user: selection.scope === 'everything', projectIds },
        this.#redact,
      );
      files.push({ path: MEMORIES_PATH, kind: 'memories', bytes: jsonBytes(memories) });
    }
    const objectUploads = [...projectRows.uploads];
    for (const conversation of conversations) {
      const rows = await readConversationRows(db, conversation.id, this.#redact);
      files.push({ path: conversationPath(conversation.id), kind: 'conversation', bytes: jsonBytes(rows) });
      objectUploads.push(...rows.tables.uploads);
      const exported = await exportConversation(db, this.#database.dialect, conversationOfRow(conversation));
      files.push({
        path: `markdown/${slug(conversation.title, 'conversation')}-${conversation.id.slice(0, 8)}.md`,
        kind: 'markdown',
        bytes: strToU8(conversationMarkdown(exported)),
      });
    }
    for (const upload of objectUploads) {
      const bytes = await this.#objects.read(String(upload['storage_path'])).catch(() => undefined);
      // An upload whose file is gone (deleted by hand) keeps its row; the import keeps it the same way.
      if (bytes !== undefined)
        files.push({ path: uploadObjectPath(String(upload['id'])), kind: 'object', bytes });
    }
    const manifest = {
      scope: selection.scope as ArchiveScope,
      projects: projectRows.projects.map((project) => ({
        id: String(project['id']),
        name: String(project['name']),
      })),
      conversations: conversations.map((row) => ({
        id: row.id,
        title: row.title,
        project_id: row.project_id,
      })),
    };
    const bytes = writeArchive({ app_version: this.#version, ...manifest }, files);
    return { bytes, fileName: `${fileName}.youyou.zip`, manifest };
  }

  /**
   * What importing `bytes` would create, checked as the import checks it (limits, checksums,
   * paths, rows) and writing nothing; the UI shows it and asks before a name is copied.
   */
  async preview(bytes: Uint8Array, options: unknown = {}): Promise<ArchiveImportPreview> {
    const { targetProjectId, manifest, projectRows, memoryRows } = this.#open(bytes, options);
    const target = targetProjectId === undefined ? null : await this.#targetProject(targetProjectId);
    return {
      scope: manifest.scope,
      created_at: manifest.created_at,
      target_project: target,
      projects:
        target === null ? await importNames(this.#database.db, projectRows.projects.map(projectNameOf)) : [],
      conversations: manifest.conversations.map((entry) => ({ source_id: entry.id, title: entry.title })),
      memories: memoryRows.memories.length,
    };
  }

  /** Checks the options and the archive; reads its manifest, projects and memories. */
  #open(bytes: Uint8Array, options: unknown) {
    const parsedOptions = archiveImportOptionsSchema.safeParse(options);
    if (!parsedOptions.success) throw new ApiError('INVALID_INPUT', 'The import options are not valid.');
    if (bytes.byteLength > this.#limits.maxTotalBytes) {
      throw new ApiError(
        'ARCHIVE_TOO_LARGE',
        `Archives are limited to ${this.#limits.maxTotalBytes} bytes.`,
        {
          details: { limit: this.#limits.maxTotalBytes },
        },
      );
    }
    const { manifest, files } = readArchive(bytes, this.#limits);
    const projectsFile = files.get(PROJECTS_PATH);
    const projectRows: ProjectRows =
      projectsFile === undefined
        ? { projects: [], settings: [], uploads: [] }
        : parseEntry(projectRowsSchema, projectsFile, PROJECTS_PATH);
    const memoriesFile = files.get(MEMORIES_PATH);
    const memoryRows: MemoryRows =
      memoriesFile === undefined
        ? { memories: [] }
        : parseEntry(memoryRowsSchema, memoriesFile, MEMORIES_PATH);
    return {
      targetProjectId: parsedOptions.data.project_id,
      onNameConflict: parsedOptions.data.on_name_conflict ?? 'copy',
      manifest,
      files,
      projectRows,
      memoryRows,
    };
  }

  async #targetProject(id: string): Promise<{ id: string; name: string }> {
    const found = await this.#database.db
      .selectFrom('projects')
      .select(['id', 'name'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (found === undefined) {
      throw new ApiError('NOT_FOUND', `No project has id ${id}.`, {
        details: { resource: 'project', id },
      });
    }
    return found;
  }

  async import(bytes: Uint8Array, options: unknown = {}): Promise<ArchiveImportResult> {
    const { targetProjectId, onNameConflict, manifest, files, projectRows, memoryRows } = this.#open(
      bytes,
      options,
    );
    const { db } = this.#database;
    const conversations: ConversationRows[] = manifest.conversations.map((entry) => {
      const path = conversationPath(entry.id);
      const content = files.get(path);
      if (content === undefined) {
        throw new ApiError(
          'ARCHIVE_INVALID',
          `The manifest names conversation ${entry.id}, whose rows “${path}” are missing.`,
          {
            details: { path },
          },
        );
      }
      const rows = parseEntry(conversationRowsSchema, content, path);
      if (rows.conversation['id'] !== entry.id) {
        throw new ApiError('ARCHIVE_INVALID', `The rows in “${path}” are of another conversation.`, {
          details: { path },
        });
      }
      return rows;
    });

    if (targetProjectId !== undefined) await this.#targetProject(targetProjectId);
    // A name a project here has: the new project comes in as a copy, or the import is refused.
    const names =
      targetProjectId === undefined ? await importNames(db, projectRows.projects.map(projectNameOf)) : [];
    const taken = names.filter((entry) => entry.name_taken);
    if (onNameConflict === 'refuse' && taken.length > 0) {
      throw new ApiError(
        'ARCHIVE_NAME_TAKEN',
        `A project here is already named ${taken.map((entry) => `“${entry.name}”`).join(', ')}; nothing was imported.`,
        { details: { projects: taken } },
      );
    }

    // Profiles live outside the archive: one that exists here is kept, any other is dropped.
    const profileIds = new Set<string>();
    for (const rows of conversations) {
      for (const row of [rows.conversation, ...rows.tables.runs, ...rows.tables.subagent_tasks]) {
        if (typeof row['profile_id'] === 'string') profileIds.add(row['profile_id']);
      }
    }
    const knownProfiles = new Set(
      profileIds.size === 0
        ? []
        : (
            await db
              .selectFrom('profiles')
              .select('id')
              .where('id', 'in', [...profileIds])
              .execute()
          ).map((row) => row.id),
    );
    const archiveProjectIds = new Set(projectRows.projects.map((row) => String(row['id'])));
    const sourceProjectIds = new Set<string>(archiveProjectIds);
    for (const rows of conversations) {
      if (typeof rows.conversation['project_id'] === 'string')
        sourceProjectIds.add(rows.conversation['project_id']);
    }
    const target = new Map<string, string>();
    if (targetProjectId !== undefined) for (const id of sourceProjectIds) target.set(id, targetProjectId);
    const remap = new IdRemapper(knownProfiles, target);
    /** A project reference after the import: the target, a new project of the archive, or none. */
    const projectOf = (value: unknown): string | null => {
      if (targetProjectId !== undefined) return targetProjectId;
      return typeof value === 'string' && archiveProjectIds.has(value) ? remap.id(value) : null;
    };
    /** A row remapped, its project reference resolved from the archive's own id. */
    const mapRow = (row: Row): Row => {
      const mapped = remap.row(row);
      return 'project_id' in row ? { ...mapped, project_id: projectOf(row['project_id']) } : mapped;
    };
    const withProfile = (row: Row): Row =>
      typeof row['profile_id'] === 'string' && !knownProfiles.has(row['profile_id'])
        ? { ...row, profile_id: null }
        : row;

    const written: string[] = [];
    const counts: Record<string, number> = {};
    const count = (table: string, rows: readonly unknown[]) => {
      counts[table] = (counts[table] ?? 0) + rows.length;
    };
    /** Uploads with their objects stored under the new id. */
    const storeUploads = async (rows: readonly Row[]): Promise<Row[]> => {
      const result: Row[] = [];
      for (const row of rows) {
        const sourceId = String(row['id']);
        const mapped = mapRow(row);
        const object = files.get(uploadObjectPath(sourceId));
        if (object !== undefined) {
          const path = await this.#objects.put('uploads', String(mapped['id']), object);
          written.push(path);
          mapped['storage_path'] = path;
        }
        result.push(mapped);
      }
      return result;
    };

    const now = Date.now();
    const newProjects =
      targetProjectId === undefined
        ? projectRows.projects.map((row, index): Row => ({
            ...remap.row(row),
            name: names[index]?.import_name ?? row['name'],
            directory: null,
            owner: null,
            updated_at: now,
          }))
        : [];
    const projectSettings =
      targetProjectId === undefined
        ? projectRows.settings.map((row) => ({ ...row, scope_id: remap.id(String(row['scope_id'])) }))
        : [];
    const archiveRunIds = new Set(
      conversations.flatMap((rows) => rows.tables.runs.map((run) => String(run['id']))),
    );
    const archiveMemoryIds = new Set(memoryRows.memories.map((row) => row.id));
    /** A reference the archive resolves: renamed with it, or none when the archive lacks it. */
    const within = (ids: ReadonlySet<string>, value: unknown): string | null =>
      typeof value === 'string' && ids.has(value) ? remap.id(value) : null;
    const memories = memoryRows.memories.map((row): Row => {
      const projectId = row.scope === 'project' ? projectOf(row.project_id) : null;
      if (row.scope === 'project' && projectId === null) {
        throw new ApiError(
          'ARCHIVE_INVALID',
          `The archive holds a project memory whose project it does not hold.`,
          { details: { path: MEMORIES_PATH, memory_id: row.id } },
        );
      }
      return {
        ...remap.row(row),
        owner: null,
        project_id: projectId,
        namespace: namespaceOf(row.scope, projectId),
        source_run_id: within(archiveRunIds, row.source_run_id),
      };
    });
    const importedUploads: Row[] = [];
    try {
      const projectUploads = targetProjectId === undefined ? await storeUploads(projectRows.uploads) : [];
      const prepared: { conversation: Row; tables: Record<string, Row[]> }[] = [];
      for (const rows of conversations) {
        const tables: Record<string, Row[]> = {};
        for (const table of CONVERSATION_TABLES) {
          const source = rows.tables[table];
          tables[table] =
            table === 'uploads'
              ? await storeUploads(source)
              : source.map((row) => withProfile(mapRow(table === 'runs' ? settledRun(row, now) : row)));
        }
        // An accepted candidate names its memory only when the archive carries that memory.
        tables['memory_candidates'] = rows.tables.memory_candidates.map((row, index) => ({
          ...tables['memory_candidates']?.[index],
          memory_id: within(archiveMemoryIds, row['memory_id']),
        }));
        prepared.push({ conversation: withProfile(mapRow(rows.conversation)), tables });
      }
      importedUploads.push(...projectUploads);
      for (const { tables } of prepared) importedUploads.push(...(tables['uploads'] ?? []));
      await db.transaction().execute(async (transaction) => {
        await insertRows(transaction, 'projects', newProjects);
        count('projects', newProjects);
        await insertRows(transaction, 'settings', projectSettings);
        await insertRows(transaction, 'uploads', projectUploads);
        count('uploads', projectUploads);
        for (const { conversation, tables } of prepared) {
          await insertRows(transaction, 'conversations', [conversation]);
          count('conversations', [conversation]);
          for (const table of CONVERSATION_TABLES) {
            const rows = tables[table] ?? [];
            await insertRows(transaction, table, rows);
            count(table, rows);
          }
        }
        await insertRows(transaction, 'memories', memories);
        count('memories', memories);
      });
    } catch (error) {
      await Promise.all(written.map((path) => this.#objects.delete(path).catch(() => {})));
      if (error instanceof ApiError) throw error;
      const wrapped = ApiError.fromUnknown(error);
      if (wrapped.code !== 'INTERNAL_ERROR') throw wrapped;
      throw new ApiError(
        'ARCHIVE_INVALID',
        'The archive’s rows do not fit this database; nothing was imported.',
        {
          cause: error,
          details: { reason: error instanceof Error ? error.message : String(error) },
        },
      );
    }
    await this.#onUploadsImported?.(importedUploads.map((row) => String(row['id'])));
    return {
      projects: newProjects.map((row, index) => ({
        id: String(row['id']),
        name: String(row['name']),
        source_id: String(projectRows.projects[index]?.['id']),
      })),
      conversations: importedConversations(conversations, remap),
      counts,
    };
  }
}
