import { randomUUID } from 'node:crypto';
import {
  DEFAULT_PARSE_LIMITS,
  DEFAULT_PARSE_POLICY,
  documentFormatOf,
  DocumentParsePolicySchema,
  type DocumentBlock,
  type DocumentBlocksPage,
  type DocumentFormat,
  type DocumentParsePolicy,
  type DocumentStatus,
  type DocumentView,
  type KnowledgeScope,
  type ParsedDocument,
  type ParseFailure,
  type ParseLimits,
} from '@youyou/contracts';
import type { Selectable } from 'kysely';
import type { DocumentsTable, WorkbenchDatabase } from '../database/index.ts';
import { ApiError, notFound } from '../errors/index.ts';
import type { EventLog } from '../events/index.ts';
import type { ServerLogger } from '../logging/index.ts';
import type { ObjectStore, UploadRow } from '../storage/index.ts';
import { parseWithPolicy } from './parse-pipeline.ts';
import { ParserRegistry } from './parser-registry.ts';
import { ParseWorkerPool } from './worker-pool.ts';

export type DocumentRow = Selectable<DocumentsTable>;

/** Called with each document that reaches `parsed`, and its IR. */
export type ParsedListener = (document: DocumentView, parsed: ParsedDocument) => void | Promise<void>;

/** At most one progress event per document in this interval. */
const PROGRESS_INTERVAL_MS = 500;

function json<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

/**
 * Documents (spec §4.11 ingest): every upload a parser can read gets a document row, queued and
 * parsed in the background through the project's parse policy, one at a time per server; status
 * changes and progress go out as `document.status` events on the conversation's stream. The
 * retrieval module subscribes with `onParsed`; the context assembler reads with `parsed`,
 * `blocks` and `documentForModel`.
 *
 * @example
 * const documents = new DocumentService({ database, eventLog, objects, logger, instanceId });
 * documents.onParsed((document, parsed) => index(document.id, parsed.blocks));
 * await documents.createForUpload(uploadRow);
 */
export class DocumentService {
  readonly registry: ParserRegistry;
  readonly #workers: ParseWorkerPool | undefined;
  readonly #database: WorkbenchDatabase;
  readonly #eventLog: EventLog;
  readonly #objects: ObjectStore;
  readonly #logger: ServerLogger;
  readonly #limits: ParseLimits;
  readonly #listeners = new Set<ParsedListener>();
  readonly #queue: string[] = [];
  readonly #progress = new Map<string, { fraction: number; sentAt: number }>();
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #controllers = new Map<string, AbortController>();
  readonly #instanceId: string;
  readonly #liveInstances: () => Promise<ReadonlySet<string>>;
  #running: Promise<void> | undefined;
  #closed = false;

  constructor(options: {
    database: WorkbenchDatabase;
    eventLog: EventLog;
    objects: ObjectStore;
    logger: ServerLogger;
    registry?: ParserRegistry;
    limits?: Partial<ParseLimits>;
    /** This server's instance id: the claimer it writes on the documents it queues and parses. */
    instanceId: string;
    /** The servers alive on this database; default only this process (one server, as on SQLite). */
    liveInstances?: () => Promise<ReadonlySet<string>>;
  }) {
    this.#instanceId = options.instanceId;
    this.#liveInstances = options.liveInstances ?? (async () => new Set([options.instanceId]));
    this.#database = options.database;
    this.#eventLog = options.eventLog;
    this.#objects = options.objects;
    this.#logger = options.logger;
    // The built-in parsers run in worker threads, so a parse never stalls the server (issue 31).
    this.#workers = options.registry === undefined ? ParseWorkerPool.create() : undefined;
    this.registry = options.registry ?? new ParserRegistry({ workers: this.#workers });
    this.#limits = { ...DEFAULT_PARSE_LIMITS, ...options.limits };
  }

  get #db() {
    return this.#database.db;
  }

  /** Calls `listener` after each document is parsed (on this server); returns the unsubscribe. */
  onParsed(listener: ParsedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Queues a new upload for parsing when a parser reads its format (not images, not unknown
   * binaries: those get no document). An image named as a document (`chart.docx`) gets one, so
   * that it fails `wrong_type` saying what it really is. Returns the queued document.
   */
  async createForUpload(
    upload: UploadRow,
    knowledgeScope: KnowledgeScope = 'project',
  ): Promise<DocumentView | undefined> {
    const format = documentFormatOf(upload.name, upload.media_type);
    if (format === null) return undefined;
    let projectId = upload.project_id;
    if (projectId === null && upload.conversation_id !== null) {
      const conversation = await this.#db
        .selectFrom('conversations')
        .select('project_id')
        .where('id', '=', upload.conversation_id)
        .executeTakeFirst();
      projectId = conversation?.project_id ?? null;
    }
    const now = Date.now();
    const row: DocumentRow = {
      id: randomUUID(),
      owner: upload.owner,
      project_id: projectId,
      conversation_id: upload.conversation_id,
      message_id: null,
      upload_id: upload.id,
      artifact_id: null,
      name: upload.name,
      media_type: upload.media_type,
      format,
      size: upload.size,
      status: 'queued',
      failure_reason: null,
      failure: null,
      metadata: null,
      provenance: null,
      parser_id: null,
      parser_version: null,
      source: null,
      ir: null,
      block_count: 0,
      attempts: 0,
      knowledge_scope: knowledgeScope,
      claimed_by: this.#instanceId,
      claimed_at: now,
      created_at: now,
      updated_at: now,
    };
    await this.#db.insertInto('documents').values(row).execute();
    const view = this.#view(row);
    await this.#emit(row.conversation_id, view);
    this.#enqueue(row.id);
    return view;
  }

  async find(id: string): Promise<DocumentView | undefined> {
    const row = await this.#row(id);
    return row === undefined ? undefined : this.#view(row);
  }

  /** The document, or undefined (the knowledge module's `KnowledgeDocuments.get`). */
  async get(id: string): Promise<DocumentView | undefined> {
    return this.find(id);
  }

  /** The document, or NOT_FOUND. */
  async require(id: string): Promise<DocumentView> {
    const view = await this.find(id);
    if (view === undefined) throw notFound('document', id);
    return view;
  }

  /** The document of an upload, if it has one. */
  async ofUpload(uploadId: string): Promise<DocumentView | undefined> {
    const row = await this.#db
      .selectFrom('documents')
      .selectAll()
      .where('upload_id', '=', uploadId)
      .executeTakeFirst();
    return row === undefined ? undefined : this.#view(row);
  }

  /** Documents of a conversation or a project (newest first), optionally of one status. */
  async list(filter: {
    conversationId?: string;
    projectId?: string;
    status?: DocumentStatus;
  }): Promise<DocumentView[]> {
    let query = this.#db.selectFrom('documents').selectAll().orderBy('created_at', 'desc').orderBy('id');
    if (filter.conversationId !== undefined)
      query = query.where('conversation_id', '=', filter.conversationId);
    if (filter.projectId !== undefined) query = query.where('project_id', '=', filter.projectId);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    return (await query.limit(1000).execute()).map((row) => this.#view(row));
  }

  /** The IR of a parsed document, undefined while it is not (yet) parsed. */
  async parsed(id: string): Promise<ParsedDocument | undefined> {
    const row = await this.#db.selectFrom('documents').select('ir').where('id', '=', id).executeTakeFirst();
    if (row === undefined) throw notFound('document', id);
    return json<ParsedDocument>(row.ir) ?? undefined;
  }

  /** Every block of a parsed document; empty while it is not parsed (the knowledge module reads these). */
  async blocks(id: string): Promise<DocumentBlock[]> {
    return (await this.parsed(id))?.blocks ?? [];
  }

  /** The knowledge module's mark once the document's chunks are searchable. */
  async markIndexed(id: string): Promise<void> {
    await this.setIndexed(id, true);
  }

  /**
   * A range of a parsed document's blocks: `from` inclusive, `to` exclusive (at most 500), or the
   * blocks of one page / slide. Fails `CONFLICT` while the document is not parsed.
   */
  async blockPage(
    id: string,
    range: { from?: number; to?: number; page?: number; slide?: number },
  ): Promise<DocumentBlocksPage> {
    const parsed = await this.parsed(id);
    if (parsed === undefined) {
      const view = await this.require(id);
      throw new ApiError('CONFLICT', `Document ${id} is ${view.status}; its blocks are not readable.`, {
        details: { status: view.status, reason: view.failure?.reason ?? null },
      });
    }
    const total = parsed.blocks.length;
    let indexed = parsed.blocks.map((block, index) => ({ index, block }));
    if (range.page !== undefined)
      indexed = indexed.filter((entry) => entry.block.location.page === range.page);
    if (range.slide !== undefined)
      indexed = indexed.filter((entry) => entry.block.location.slide === range.slide);
    const from = Math.max(0, range.from ?? 0);
    const to = Math.min(total, range.to ?? from + 500, from + 500);
    const selected = indexed.filter((entry) => entry.index >= from && entry.index < to);
    return { document_id: id, total, from, to: Math.max(from, to), blocks: selected };
  }

  /**
   * Parses a document again (the policy may have changed since): a failed or parsed one, or one
   * left queued or parsing by an instance that is gone. `CONFLICT` while a live instance holds it.
   */
  async retry(id: string): Promise<DocumentView> {
    const row = await this.#row(id);
    if (row === undefined) throw notFound('document', id);
    const held = row.status === 'queued' || row.status === 'parsing';
    if (held && row.claimed_by !== null && (await this.#liveInstances()).has(row.claimed_by))
      throw new ApiError('CONFLICT', `Document ${id} is already ${row.status}.`);
    // Taken in the database: of two servers retrying an orphan at once, one requeues it.
    if (!(await this.#takeOver(row))) throw new ApiError('CONFLICT', `Document ${id} was just taken up.`);
    const updated = await this.#update(id, { failure: null, failure_reason: null });
    this.#enqueue(id);
    return updated;
  }

  /**
   * Puts `row` back to `queued` under this instance's claim, if nobody changed its status or
   * claimer since it was read (a conditional UPDATE, so one instance wins a race).
   */
  async #takeOver(row: DocumentRow): Promise<boolean> {
    const now = Date.now();
    let query = this.#db
      .updateTable('documents')
      .set({ status: 'queued', claimed_by: this.#instanceId, claimed_at: now, updated_at: now })
      .where('id', '=', row.id)
      .where('status', '=', row.status);
    query =
      row.claimed_by === null
        ? query.where('claimed_by', 'is', null)
        : query.where('claimed_by', '=', row.claimed_by);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * The documents of uploads just sent in a conversation (their rows already name it): those that
   * had no project take the conversation's, and the parsed ones are handed to the listeners
   * again, so an upload made before its conversation existed still joins the project's knowledge.
   */
  async sentIn(uploadIds: readonly string[], projectId: string | null): Promise<void> {
    if (uploadIds.length === 0 || projectId === null) return;
    const moved = await this.#db
      .selectFrom('documents')
      .select('id')
      .where('upload_id', 'in', [...uploadIds])
      .where('project_id', 'is', null)
      .execute();
    if (moved.length === 0) return;
    const ids = moved.map((row) => row.id);
    await this.#db.updateTable('documents').set({ project_id: projectId }).where('id', 'in', ids).execute();
    const rows = await this.#db
      .selectFrom('documents')
      .selectAll()
      .where('id', 'in', ids)
      .where('status', 'in', ['parsed', 'indexed'])
      .execute();
    for (const row of rows) await this.#announce(row);
  }

  /**
   * Keeps a document to its conversation or puts it in its project's knowledge (decision 0029);
   * the knowledge module hears of it as of a new parse and indexes or drops it.
   */
  async setKnowledgeScope(id: string, scope: KnowledgeScope): Promise<DocumentView> {
    const row = await this.#row(id);
    if (row === undefined) throw notFound('document', id);
    if (row.knowledge_scope === scope) return this.#view(row);
    const view = await this.#update(id, { knowledge_scope: scope });
    const updated = await this.#row(id);
    if (updated !== undefined && (updated.status === 'parsed' || updated.status === 'indexed'))
      await this.#announce(updated);
    return view;
  }

  /** Hands a parsed document to the `onParsed` listeners. */
  async #announce(row: DocumentRow): Promise<void> {
    const parsed = json<ParsedDocument>(row.ir);
    if (parsed === null) return;
    const view = this.#view(row);
    for (const listener of this.#listeners) {
      try {
        await listener(view, parsed);
      } catch (error) {
        this.#logger.warn({ err: error, documentId: row.id }, 'a parsed-document listener failed');
      }
    }
  }

  /** The retrieval module's mark: the document is in the index (`indexed`), or back to `parsed`. */
  async setIndexed(id: string, indexed: boolean): Promise<DocumentView> {
    const row = await this.#row(id);
    if (row === undefined) throw notFound('document', id);
    if (row.status !== 'parsed' && row.status !== 'indexed')
      throw new ApiError('CONFLICT', `Document ${id} is ${row.status}, not parsed.`);
    return this.#update(id, { status: indexed ? 'indexed' : 'parsed' });
  }

  /**
   * Waits until the document is parsed or failed (or `timeoutMs` passes) and returns its view.
   *
   * @example
   * const view = await documents.settled(id, 30_000);
   */
  async settled(id: string, timeoutMs: number): Promise<DocumentView> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const view = await this.require(id);
      if (view.status !== 'queued' && view.status !== 'parsing') return view;
      const left = deadline - Date.now();
      if (left <= 0) return view;
      await new Promise<void>((resolve) => {
        const waiters = this.#waiters.get(id) ?? new Set();
        this.#waiters.set(id, waiters);
        const done = (): void => {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        };
        // Another server may parse it: look again now and then.
        const timer = setTimeout(done, Math.min(left, 1000));
        waiters.add(done);
      });
    }
  }

  /** A project's parse policy, or the default. */
  async policy(projectId: string | null): Promise<DocumentParsePolicy> {
    if (projectId === null) return DEFAULT_PARSE_POLICY;
    const row = await this.#db
      .selectFrom('document_parse_policies')
      .select('policy')
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    if (row === undefined) return DEFAULT_PARSE_POLICY;
    const parsed = DocumentParsePolicySchema.safeParse(JSON.parse(row.policy));
    return parsed.success ? parsed.data : DEFAULT_PARSE_POLICY;
  }

  /** Stores a project's parse policy; chain entries must name known parsers (or `builtin`, `http-service`). */
  async setPolicy(projectId: string, policy: DocumentParsePolicy): Promise<DocumentParsePolicy> {
    const known = new Set(['builtin', 'http-service', ...this.registry.list().map((parser) => parser.id)]);
    for (const [format, entry] of Object.entries(policy.formats)) {
      const unknown = entry.chain.filter((name) => !known.has(name));
      if (unknown.length > 0)
        throw new ApiError(
          'INVALID_INPUT',
          `The ${format} chain names unknown parsers: ${unknown.join(', ')}.`,
          {
            details: { format, unknown },
          },
        );
      if (entry.chain.includes('http-service') && policy.service.url === null)
        throw new ApiError(
          'INVALID_INPUT',
          `The ${format} chain uses http-service, but the policy gives no service URL.`,
          {
            details: { format },
          },
        );
    }
    const value = JSON.stringify(policy);
    const now = Date.now();
    await this.#db
      .insertInto('document_parse_policies')
      .values({ project_id: projectId, policy: value, updated_at: now })
      .onConflict((conflict) => conflict.column('project_id').doUpdateSet({ policy: value, updated_at: now }))
      .execute();
    return policy;
  }

  /**
   * Queues again, under this instance's claim, every queued or parsing document whose claimer is
   * not among `liveInstances` (a server that stopped or was killed mid-parse; decision 0030). Runs
   * at start and in the periodic sweep; returns how many it took over.
   */
  async recover(liveInstances: ReadonlySet<string>): Promise<number> {
    const rows = await this.#db
      .selectFrom('documents')
      .selectAll()
      .where('status', 'in', ['queued', 'parsing'])
      .execute();
    let queued = 0;
    for (const row of rows) {
      if (row.claimed_by !== null && liveInstances.has(row.claimed_by)) continue;
      if (!(await this.#takeOver(row))) continue;
      this.#progress.delete(row.id);
      const view = await this.find(row.id);
      if (view !== undefined) await this.#emit(row.conversation_id, view);
      this.#enqueue(row.id);
      queued++;
    }
    return queued;
  }

  /** Resolves when the queue is empty (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#queue.length = 0;
    for (const controller of this.#controllers.values()) controller.abort();
    await this.idle();
    await this.#workers?.close();
  }

  #enqueue(id: string): void {
    if (this.#closed || this.#queue.includes(id)) return;
    this.#queue.push(id);
    this.#running ??= this.#drain().finally(() => (this.#running = undefined));
  }

  async #drain(): Promise<void> {
    for (let id = this.#queue.shift(); id !== undefined && !this.#closed; id = this.#queue.shift()) {
      await this.#parse(id).catch((error: unknown) =>
        this.#logger.error({ err: error, documentId: id }, 'a document could not be parsed'),
      );
      this.#wake(id);
    }
  }

  #wake(id: string): void {
    for (const waiter of [...(this.#waiters.get(id) ?? [])]) waiter();
    this.#waiters.delete(id);
  }

  async #parse(id: string): Promise<void> {
    // Claim it: another server sharing the database may have taken it already.
    const claimed = await this.#db
      .updateTable('documents')
      .set((eb) => ({
        status: 'parsing',
        attempts: eb('attempts', '+', 1),
        claimed_by: this.#instanceId,
        claimed_at: Date.now(),
        updated_at: Date.now(),
      }))
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return;
    const row = (await this.#row(id)) as DocumentRow;
    this.#progress.set(id, { fraction: 0, sentAt: Date.now() });
    await this.#emit(row.conversation_id, this.#view(row));
    const controller = new AbortController();
    this.#controllers.set(id, controller);
    try {
      const upload =
        row.upload_id === null
          ? undefined
          : await this.#db
              .selectFrom('uploads')
              .selectAll()
              .where('id', '=', row.upload_id)
              .executeTakeFirst();
      if (upload === undefined) {
        await this.#fail(row, { reason: 'corrupt', message: 'The uploaded file is gone.', parser: null });
        return;
      }
      const bytes = new Uint8Array(await this.#objects.read(upload.storage_path));
      const policy = await this.policy(row.project_id);
      const { result, notes } = await parseWithPolicy({
        registry: this.registry,
        policy,
        input: { bytes, name: row.name, media_type: row.media_type, format: row.format as DocumentFormat },
        serverLimits: this.#limits,
        signal: controller.signal,
        progress: (fraction) => this.#reportProgress(row, fraction),
      });
      if (!result.ok) {
        await this.#fail(row, result.failure);
        return;
      }
      const parsed = {
        ...result.document,
        provenance: {
          ...result.document.provenance,
          warnings: [...notes, ...result.document.provenance.warnings],
        },
      };
      const view = await this.#update(id, {
        status: 'parsed',
        ir: JSON.stringify(parsed),
        metadata: JSON.stringify(parsed.metadata),
        provenance: JSON.stringify(parsed.provenance),
        parser_id: parsed.provenance.parser.id,
        parser_version: parsed.provenance.parser.version,
        source: parsed.provenance.parser.source,
        block_count: parsed.blocks.length,
        failure: null,
        failure_reason: null,
      });
      for (const listener of this.#listeners) {
        try {
          await listener(view, parsed);
        } catch (error) {
          this.#logger.warn({ err: error, documentId: id }, 'a parsed-document listener failed');
        }
      }
    } finally {
      this.#controllers.delete(id);
      this.#progress.delete(id);
    }
  }

  #reportProgress(row: DocumentRow, fraction: number): void {
    const last = this.#progress.get(row.id);
    const now = Date.now();
    if (last !== undefined && (now - last.sentAt < PROGRESS_INTERVAL_MS || fraction - last.fraction < 0.05)) {
      if (last !== undefined) last.fraction = Math.max(last.fraction, Math.min(1, fraction));
      return;
    }
    this.#progress.set(row.id, { fraction: Math.min(1, fraction), sentAt: now });
    void this.#emit(row.conversation_id, this.#view({ ...row, status: 'parsing' }));
  }

  async #fail(row: DocumentRow, failure: ParseFailure): Promise<void> {
    await this.#update(row.id, {
      status: 'failed',
      failure: JSON.stringify(failure),
      failure_reason: failure.reason,
      ir: null,
      metadata: null,
      block_count: 0,
      parser_id: failure.parser?.id ?? null,
      parser_version: failure.parser?.version ?? null,
      source: failure.parser?.source ?? null,
    });
  }

  async #update(id: string, values: Partial<DocumentRow>): Promise<DocumentView> {
    // A document that leaves queued/parsing is nobody's any more.
    const released =
      values.status !== undefined && values.status !== 'queued' && values.status !== 'parsing'
        ? { claimed_by: null, claimed_at: null }
        : {};
    await this.#db
      .updateTable('documents')
      .set({ ...values, ...released, updated_at: Date.now() })
      .where('id', '=', id)
      .execute();
    const row = await this.#row(id);
    if (row === undefined) throw notFound('document', id);
    const view = this.#view(row);
    await this.#emit(row.conversation_id, view);
    return view;
  }

  async #row(id: string): Promise<DocumentRow | undefined> {
    return this.#db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async #emit(conversationId: string | null, document: DocumentView): Promise<void> {
    if (conversationId === null) return;
    try {
      await this.#eventLog.append(conversationId, [
        { run_id: null, type: 'document.status', payload: { document } },
      ]);
    } catch (error) {
      // The conversation may be gone (deleted while parsing): the row still says where it is.
      this.#logger.debug({ err: error, documentId: document.id }, 'a document event could not be stored');
    }
  }

  #view(row: DocumentRow): DocumentView {
    const status = row.status as DocumentStatus;
    return {
      id: row.id,
      project_id: row.project_id,
      conversation_id: row.conversation_id,
      message_id: row.message_id,
      upload_id: row.upload_id,
      artifact_id: row.artifact_id,
      name: row.name,
      media_type: row.media_type,
      format: row.format as DocumentFormat | null,
      size: Number(row.size),
      status,
      progress: status === 'parsing' ? (this.#progress.get(row.id)?.fraction ?? 0) : null,
      failure: json(row.failure),
      metadata: json(row.metadata),
      provenance: json(row.provenance),
      block_count: row.block_count,
      knowledge_scope: row.knowledge_scope === 'conversation' ? 'conversation' : 'project',
      created_at: new Date(Number(row.created_at)).toISOString(),
      updated_at: new Date(Number(row.updated_at)).toISOString(),
    };
  }
}
