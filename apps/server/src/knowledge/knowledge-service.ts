import { randomUUID } from 'node:crypto';
import { readFile, realpath } from 'node:fs/promises';
import type {
  DocumentBlock,
  DocumentView,
  KnowledgeItem,
  KnowledgeList,
  KnowledgeStatus,
  Retriever,
} from '@youyou/contracts';
import { KNOWLEDGE_STATUSES, type ParserInput, type ParseResult } from '@youyou/contracts';
import type { ArtifactService } from '../artifacts/index.ts';
import { ApiError } from '../errors/index.ts';
import { artifactBlocks } from './artifact-blocks.ts';
import { blockChunker } from './chunker.ts';
import type { KnowledgeRepository } from './knowledge-repository.ts';
import type { Embedder } from './embedder.ts';

/**
 * What the knowledge index needs of ingest's DocumentService (spec §4.11 → §4.12): a call for
 * each document that finished parsing, its blocks, and the `indexed` mark.
 */
export interface KnowledgeDocuments {
  /**
   * Calls `listener` with each document that reaches `parsed` (or changes its knowledge scope) and
   * awaits it, so a scope change has taken effect in the index when it returns; gives the unsubscribe.
   */
  onParsed(listener: (document: DocumentView) => Promise<void>): () => void;
  get(documentId: string): Promise<DocumentView | undefined>;
  blocks(documentId: string): Promise<DocumentBlock[]>;
  /** Marks the document `indexed` once its chunks are searchable. */
  markIndexed?(documentId: string): Promise<void>;
}

/** One document of an extension's knowledge pack (spec §4.6 "知识包"). */
export interface KnowledgePackFile {
  /** The pack's id in the manifest. */
  pack: string;
  /** The file, absolute; it must stay inside `root`. */
  path: string;
  /** The extension's folder. */
  root: string;
  /** Relative to the extension's folder: what the item is known by. */
  relative: string;
}

/** Parses a pack's file the way an upload is parsed (ingest's registry and default policy). */
export type KnowledgePackParser = (
  input: Omit<ParserInput, 'format'>,
  signal: AbortSignal,
) => Promise<ParseResult>;

/** How long an artifact must stay unchanged before it is indexed. */
export const ARTIFACT_SETTLE_MS = 750;

/** Logs what indexing could not do; the item's status says it too. */
interface KnowledgeLogger {
  warn(object: object, message: string): void;
}

/** A range of blocks read from an item (`read_document`, the viewer). */
export interface DocumentExcerpt {
  item: KnowledgeItem;
  total: number;
  from: number;
  to: number;
  blocks: { index: number; block: DocumentBlock }[];
}

/**
 * A project's knowledge (spec §4.12): every parsed upload and every artifact becomes an item that
 * is cut into chunks and indexed in the background, one at a time, with its status stored (queued →
 * parsing → indexed | failed), and can be retried or rebuilt. Items left queued or mid-way by a
 * stopped server are picked up again at start.
 *
 * @example
 * const knowledge = new KnowledgeService({ repository, artifacts, retriever, logger });
 * await knowledge.start();
 * await knowledge.list('p1');
 */
export class KnowledgeService {
  /** Searches everything written so far (artifacts still settling are indexed first). */
  readonly retriever: Retriever;
  /**
   * Searches what is indexed now, without waiting for artifacts still settling: for the context
   * assembler's knowledge slot, which runs at every model call and must not index on the way.
   */
  readonly indexRetriever: Retriever;
  readonly #repository: KnowledgeRepository;
  readonly #artifacts: ArtifactService;
  readonly #logger: KnowledgeLogger;
  readonly #embedder: Embedder | undefined;
  #documents: KnowledgeDocuments | undefined;
  #documentsConnected = false;
  /** Knowledge-pack files by item source id (`<extension id>/<path>`), as the extensions give them. */
  readonly #packFiles = new Map<string, KnowledgePackFile>();
  #packParser: KnowledgePackParser | undefined;
  readonly #queue: string[] = [];
  #working: Promise<void> | undefined;
  #stopped = false;
  readonly #unsubscribe: (() => void)[] = [];
  readonly #listeners = new Set<(item: KnowledgeItem) => void>();
  readonly #artifactSettleMs: number;
  readonly #instanceId: string;
  /** Artifacts written but not yet indexed, each waiting for its writes to settle. */
  readonly #settling = new Map<string, NodeJS.Timeout>();

  constructor(options: {
    repository: KnowledgeRepository;
    artifacts: ArtifactService;
    retriever: Retriever;
    logger: KnowledgeLogger;
    documents?: KnowledgeDocuments;
    embedder?: Embedder;
    /** How long an artifact must stay unchanged before it is indexed (default ARTIFACT_SETTLE_MS). */
    artifactSettleMs?: number;
    /** This server instance, the claimer of what it queues (decision 0043); default a random id. */
    instanceId?: string;
  }) {
    this.#instanceId = options.instanceId ?? randomUUID();
    this.#repository = options.repository;
    this.#artifacts = options.artifacts;
    const retriever = options.retriever;
    this.indexRetriever = retriever;
    // A search sees every artifact written before it: the ones still settling are indexed first.
    this.retriever = {
      search: async (query, searchOptions) => {
        await this.#settlePending();
        return retriever.search(query, searchOptions);
      },
    };
    this.#artifactSettleMs = options.artifactSettleMs ?? ARTIFACT_SETTLE_MS;
    this.#logger = options.logger;
    this.#documents = options.documents;
    this.#embedder = options.embedder;
  }

  /**
   * Subscribes to artifacts and documents and resumes what a stopped server left: the items no
   * instance in `live` holds (default: this one alone, one server per data directory). Gives how
   * many items another instance had left.
   */
  async start(live: ReadonlySet<string> = new Set([this.#instanceId])): Promise<number> {
    this.#unsubscribe.push(
      this.#artifacts.onChange((change) => {
        clearTimeout(this.#settling.get(change.artifactId));
        this.#settling.delete(change.artifactId);
        if (change.type === 'deleted') void this.#forget('artifact', change.artifactId);
        else this.#settle(change.artifactId);
      }),
    );
    if (this.#documents !== undefined && !this.#documentsConnected) this.connectDocuments(this.#documents);
    const requeued = await this.recover(live);
    await this.#backfill();
    return requeued;
  }

  /** Artifacts and parsed documents that have no item yet (written before the index existed). */
  async #backfill(): Promise<void> {
    for (const artifactId of await this.#repository.artifactsWithoutItems())
      await this.indexArtifact(artifactId).catch((error: unknown) => this.#warn(error, artifactId));
    const documents = this.#documents;
    if (documents === undefined) return;
    for (const documentId of await this.#repository.parsedDocumentsWithoutItems()) {
      const document = await documents.get(documentId).catch(() => undefined);
      if (document !== undefined)
        await this.indexDocument(document).catch((error: unknown) => this.#warn(error, documentId));
    }
  }

  /** Connects ingest's documents (they may be built after this service). */
  connectDocuments(documents: KnowledgeDocuments): void {
    this.#documents = documents;
    this.#documentsConnected = true;
    this.#unsubscribe.push(
      // Awaited: a PATCH that keeps a document to its conversation answers once it is out of the
      // index (only the upsert and the queueing wait here, not the indexing itself).
      documents.onParsed(async (document) => {
        await this.indexDocument(document).catch((error: unknown) => this.#warn(error, document.id));
      }),
    );
  }

  /**
   * Indexes an extension's knowledge packs under the source `extension` (spec §4.6): one item per
   * file, outside any project, so every project's search finds them. The extension's items that
   * are no longer in `files` are removed. Files wait for `connectPackParser` when it is not set yet.
   */
  async indexPacks(extensionId: string, files: readonly KnowledgePackFile[]): Promise<void> {
    const prefix = `${extensionId}/`;
    for (const key of [...this.#packFiles.keys()]) if (key.startsWith(prefix)) this.#packFiles.delete(key);
    const wanted = new Set<string>();
    for (const file of files) {
      const sourceId = `${prefix}${file.relative}`;
      wanted.add(sourceId);
      this.#packFiles.set(sourceId, file);
      const item = await this.#repository.upsert(
        {
          source: 'extension',
          source_id: sourceId,
          project_id: null,
          document_id: null,
          title: file.relative.split('/').pop() ?? file.relative,
          media_type: mediaTypeOf(file.relative),
          source_version: 1,
        },
        this.#instanceId,
      );
      this.#changed(item);
      if (this.#packParser !== undefined) this.#enqueue(item.id);
    }
    const stale = (await this.#repository.withSourcePrefix('extension', prefix)).filter(
      (item) => !wanted.has(item.source_id),
    );
    await this.#repository.deleteIds(stale.map((item) => item.id));
  }

  /** Removes everything an extension's packs put in the index (disabled or uninstalled). */
  async forgetPacks(extensionId: string): Promise<void> {
    const prefix = `${extensionId}/`;
    for (const key of [...this.#packFiles.keys()]) if (key.startsWith(prefix)) this.#packFiles.delete(key);
    const items = await this.#repository.withSourcePrefix('extension', prefix);
    await this.#repository.deleteIds(items.map((item) => item.id));
  }

  /** Connects the parser for pack files and queues the files that waited for it. */
  async connectPackParser(parser: KnowledgePackParser): Promise<void> {
    this.#packParser = parser;
    for (const sourceId of this.#packFiles.keys()) {
      const item = await this.#repository.bySource('extension', sourceId);
      if (item !== undefined) this.#enqueue(item.id);
    }
  }

  async #packBlocks(item: KnowledgeItem): Promise<DocumentBlock[]> {
    const file = this.#packFiles.get(item.source_id);
    const parser = this.#packParser;
    if (file === undefined || parser === undefined)
      throw new ApiError(
        'EXTENSION_REMOVED',
        `The knowledge pack file ${item.source_id} is not provided now.`,
        {
          details: { source_id: item.source_id },
        },
      );
    // The pack's folder was checked at load; a symlink swapped in since must not read elsewhere.
    const [path, root] = await Promise.all([realpath(file.path), realpath(file.root)]);
    if (!path.startsWith(`${root}/`))
      throw new ApiError('EXTENSION_INVALID', `${file.relative} leaves its extension's folder.`, {
        details: { source_id: item.source_id },
      });
    const bytes = new Uint8Array(await readFile(path));
    const result = await parser(
      { bytes, name: file.relative, media_type: item.media_type },
      new AbortController().signal,
    );
    if (!result.ok)
      throw new ApiError('EXTENSION_INVALID', `${file.relative}: ${result.failure.message}`, {
        details: { reason: result.failure.reason, source_id: item.source_id },
      });
    return result.document.blocks;
  }

  /**
   * Indexes an artifact once it has been left alone for a moment. An agent editing a document
   * writes version after version; indexing each (SQLite's writes hold the event loop) made every
   * edit of a 1 MB artifact wait for the index of the one before. A search indexes what is still
   * settling first, so it never misses a write.
   */
  #settle(artifactId: string): void {
    const timer = setTimeout(() => {
      this.#settling.delete(artifactId);
      void this.indexArtifact(artifactId).catch((error: unknown) => this.#warn(error, artifactId));
    }, this.#artifactSettleMs);
    timer.unref();
    this.#settling.set(artifactId, timer);
  }

  async #settlePending(): Promise<void> {
    if (this.#settling.size === 0) return;
    const waiting = [...this.#settling.keys()];
    for (const artifactId of waiting) {
      clearTimeout(this.#settling.get(artifactId));
      this.#settling.delete(artifactId);
      await this.indexArtifact(artifactId).catch((error: unknown) => this.#warn(error, artifactId));
    }
    await this.idle();
  }

  /** Stops taking work; the item being indexed finishes. */
  async stop(): Promise<void> {
    for (const timer of this.#settling.values()) clearTimeout(timer);
    this.#settling.clear();
    this.#stopped = true;
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    await this.#working;
  }

  /**
   * Queues again, under this instance, every queued or indexing item whose claimer is not in
   * `live` (a server that stopped or was killed mid-way; decision 0043) and gives how many. Runs at
   * start and in the recovery sweep; of two instances sweeping at once, one takes each item.
   */
  async recover(live: ReadonlySet<string>): Promise<number> {
    let taken = 0;
    for (const orphan of await this.#repository.orphans(live)) {
      if (orphan.claimed_by === this.#instanceId) {
        this.#enqueue(orphan.id);
        continue;
      }
      if (!(await this.#repository.takeOver(orphan.id, orphan.claimed_by, this.#instanceId))) continue;
      taken += 1;
      this.#enqueue(orphan.id);
    }
    return taken;
  }

  /** Calls `listener` whenever an item's status changes. */
  onItemChange(listener: (item: KnowledgeItem) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves when nothing is queued or being indexed (tests, the benchmark). */
  async idle(): Promise<void> {
    while (this.#working !== undefined) await this.#working;
  }

  /** Queues an artifact (not an upload: those come parsed, as documents). */
  async indexArtifact(artifactId: string): Promise<KnowledgeItem | undefined> {
    const artifact = await this.#artifacts.get(artifactId);
    if (artifact.kind === 'upload') return undefined;
    const item = await this.#repository.upsert(
      {
        source: 'artifact',
        source_id: artifact.id,
        project_id: artifact.project_id,
        document_id: null,
        title: artifact.title,
        media_type: artifact.media_type,
        source_version: artifact.version,
      },
      this.#instanceId,
    );
    this.#changed(item);
    this.#enqueue(item.id);
    return item;
  }

  /**
   * Queues a parsed document (an upload) in its project's knowledge; one the user kept to its
   * conversation (`knowledge_scope: 'conversation'`) is taken out instead and gives undefined.
   */
  async indexDocument(document: DocumentView): Promise<KnowledgeItem | undefined> {
    if (document.knowledge_scope === 'conversation' && document.upload_id !== null) {
      await this.#repository.deleteSource('upload', document.upload_id);
      return undefined;
    }
    const item = await this.#repository.upsert(
      {
        source: document.artifact_id === null ? 'upload' : 'artifact',
        source_id: document.upload_id ?? document.artifact_id ?? document.id,
        project_id: document.project_id,
        document_id: document.id,
        title: document.name,
        media_type: document.media_type,
        source_version: 1,
      },
      this.#instanceId,
    );
    this.#changed(item);
    this.#enqueue(item.id);
    return item;
  }

  /** A project's knowledge (null: outside any project) with a count per status. */
  async list(projectId: string | null): Promise<KnowledgeList> {
    const items = await this.#repository.list(projectId);
    const counts = Object.fromEntries(KNOWLEDGE_STATUSES.map((status) => [status, 0])) as Record<
      KnowledgeStatus,
      number
    >;
    for (const item of items) counts[item.status] += 1;
    return { items, counts };
  }

  async get(id: string): Promise<KnowledgeItem> {
    const item = await this.#repository.get(id);
    if (item === undefined)
      throw new ApiError('NOT_FOUND', `No knowledge item has id ${id}.`, {
        details: { resource: 'knowledge', id },
      });
    return item;
  }

  /** Indexes one item again (a failed one, or to pick up a changed chunker). */
  async retry(id: string): Promise<KnowledgeItem> {
    const item = await this.get(id);
    await this.#repository.requeue(item.id, this.#instanceId);
    const queued = { ...item, status: 'queued' as const, error: null };
    this.#changed(queued);
    this.#enqueue(item.id);
    return queued;
  }

  /** Re-indexes a project's items (or only the failed ones); returns how many were queued. */
  async rebuild(projectId: string | null, onlyFailed = false): Promise<number> {
    const items = (await this.#repository.list(projectId)).filter(
      (item) => !onlyFailed || item.status === 'failed',
    );
    for (const item of items) await this.retry(item.id);
    return items.length;
  }

  /**
   * Blocks `from` (inclusive) to `to` (exclusive) of a document, or the blocks of `page`: what
   * `read_document` and the viewer read. `id` is a knowledge item, document, upload or artifact id.
   */
  async read(
    id: string,
    range: { from?: number; to?: number; page?: number } = {},
  ): Promise<DocumentExcerpt> {
    const item = await this.#repository.resolve(id);
    if (item === undefined)
      throw new ApiError('NOT_FOUND', `No document or knowledge item has id ${id}.`, {
        details: { resource: 'document', id },
      });
    const blocks = await this.#blocksOf(item);
    let indexed = blocks.map((block, index) => ({ index, block }));
    const total = blocks.length;
    if (range.page !== undefined) {
      indexed = indexed.filter(({ block }) => (block.location.page ?? block.location.slide) === range.page);
      return {
        item,
        total,
        from: indexed[0]?.index ?? 0,
        to: (indexed[indexed.length - 1]?.index ?? -1) + 1,
        blocks: indexed,
      };
    }
    const from = Math.max(0, range.from ?? 0);
    if (total > 0 && from >= total)
      throw new ApiError(
        'INVALID_INPUT',
        `Block ${from} is past the end: the document has ${total} blocks.`,
        {
          details: { id, total },
        },
      );
    const to = Math.min(total, Math.max(from, range.to ?? total));
    return { item, total, from, to, blocks: indexed.slice(from, to) };
  }

  async #blocksOf(item: KnowledgeItem): Promise<DocumentBlock[]> {
    if (item.document_id !== null) {
      if (this.#documents === undefined)
        throw new ApiError('SERVICE_UNAVAILABLE', 'Parsed documents cannot be read on this server.', {
          retryable: true,
        });
      return this.#documents.blocks(item.document_id);
    }
    if (item.source === 'extension') return this.#packBlocks(item);
    if (item.source === 'artifact') {
      const artifact = await this.#artifacts.get(item.source_id);
      const version = await this.#artifacts.version(artifact.id, artifact.version);
      return artifactBlocks(artifact.kind, artifact.language, version.content ?? '');
    }
    throw new ApiError('NOT_FOUND', `Knowledge item ${item.id} has nothing to read.`, {
      details: { resource: 'document', id: item.id },
    });
  }

  #enqueue(id: string): void {
    if (this.#stopped) return;
    if (!this.#queue.includes(id)) this.#queue.push(id);
    this.#working ??= this.#drain().finally(() => (this.#working = undefined));
  }

  async #drain(): Promise<void> {
    for (let id = this.#queue.shift(); id !== undefined && !this.#stopped; id = this.#queue.shift()) {
      await this.#index(id);
    }
  }

  async #index(id: string): Promise<void> {
    const item = await this.#repository.get(id);
    if (item === undefined) return;
    // Taken in the database: another instance holding the item indexes it, not this one.
    if (!(await this.#repository.claim(id, this.#instanceId))) return;
    try {
      this.#changed({ ...item, status: 'parsing', error: null, attempts: item.attempts + 1 });
      const drafts = blockChunker.chunk(await this.#blocksOf(item));
      await this.#repository.replaceChunks(item, drafts);
      if (this.#embedder !== undefined) {
        const embedded = await this.#embedder.embedItem(item);
        if (embedded !== undefined) await this.#repository.setEmbedded(item.id, embedded);
      }
      if (item.document_id !== null) await this.#documents?.markIndexed?.(item.document_id);
    } catch (error) {
      const failure = ApiError.fromUnknown(error);
      this.#logger.warn({ err: error, knowledgeId: id }, 'a knowledge item could not be indexed');
      await this.#repository.fail(id, { code: failure.code, message: failure.message }).catch(() => {});
    }
    const after = await this.#repository.get(id).catch(() => undefined);
    if (after !== undefined) this.#changed(after);
  }

  /** Drops the item of a deleted upload or artifact with its chunks and vectors. */
  async forget(source: 'artifact' | 'upload', sourceId: string): Promise<void> {
    await this.#repository.deleteSource(source, sourceId);
  }

  async #forget(source: 'artifact' | 'upload', sourceId: string): Promise<void> {
    await this.#repository
      .deleteSource(source, sourceId)
      .catch((error: unknown) => this.#warn(error, sourceId));
  }

  #changed(item: KnowledgeItem): void {
    for (const listener of this.#listeners) listener(item);
  }

  #warn(error: unknown, id: string): void {
    this.#logger.warn({ err: error, id }, 'knowledge indexing could not start');
  }
}

const PACK_MEDIA_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  html: 'text/html',
  htm: 'text/html',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

function mediaTypeOf(name: string): string {
  return PACK_MEDIA_TYPES[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}
