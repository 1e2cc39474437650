import { mkdir, open, readFile, readdir, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AgentError } from '../errors/index.ts';
import type { FileChannelLogger } from '../files/index.ts';
import { resolveYouyouHome } from '../files/index.ts';
import type { SessionRecord } from '../session/index.ts';
import type { SessionPage, SessionStorage, SessionSummary } from '../session/index.ts';
import {
  parseJsonLines,
  repairTornTail,
  sessionFileName,
  sessionIdOfFileName,
} from './jsonl-session-file.ts';
import { summarizeRecords } from './session-summary.ts';
import type { SummaryAccumulator } from './session-summary.ts';

/**
 * Where and how `JsonlSessionStorage` writes.
 *
 * @example
 * new JsonlSessionStorage({ home: '/tmp/test-home', fsync: true });
 */
export interface JsonlSessionStorageOptions {
  /** Where session files go; default `{home}/sessions`. */
  directory?: string;
  /** Used when `directory` is absent; default `YOUYOU_HOME` or `~/.youyou`. */
  home?: string;
  /** fsync after every append: survives power loss, not only a crash, at a few ms per append. */
  fsync?: boolean;
  logger?: Pick<FileChannelLogger, 'warn'>;
}

interface CachedSummary {
  /** The file's inode: a session deleted and written again is a new file, folded from the start. */
  inode: number;
  size: number;
  mtimeMs: number;
  /** Bytes folded into `summary`: always the end of a complete line. */
  offset: number;
  /** The last bytes folded (up to TAIL_CHECK_BYTES), to tell an appended file from a rewritten one. */
  tail: Buffer;
  summary: SummaryAccumulator;
}

const DEFAULT_PAGE = 50;
const TAIL_CHECK_BYTES = 256;

/**
 * Sessions as append-only JSONL files, one per session, under `~/.youyou/sessions/` (spec §3.7,
 * §5.1). A crash mid-append leaves at most a torn last line: `load` ignores it and the next append
 * cuts it off first, so nothing written before is lost. Listing folds only the bytes appended
 * since the last listing.
 *
 * @example
 * const agent = await new AgentBuilder({ cwd, home })
 *   .addProvider(provider)
 *   .setSessionStorage(new JsonlSessionStorage({ home }))
 *   .build();
 */
export class JsonlSessionStorage implements SessionStorage {
  readonly directory: string;
  readonly #fsync: boolean;
  readonly #logger: Pick<FileChannelLogger, 'warn'> | undefined;
  readonly #queues = new Map<string, Promise<void>>();
  readonly #repaired = new Set<string>();
  readonly #summaries = new Map<string, CachedSummary>();

  constructor(options: JsonlSessionStorageOptions = {}) {
    this.directory = resolve(options.directory ?? join(options.home ?? resolveYouyouHome(), 'sessions'));
    this.#fsync = options.fsync ?? false;
    this.#logger = options.logger;
  }

  /** The file a session is stored in. */
  pathOf(sessionId: string): string {
    return join(this.directory, sessionFileName(checkId(sessionId)));
  }

  async append(sessionId: string, records: readonly SessionRecord[]): Promise<void> {
    const path = this.pathOf(sessionId);
    return this.#serialize(sessionId, async () => {
      await mkdir(this.directory, { recursive: true });
      if (!this.#repaired.has(sessionId)) {
        const removed = await repairTornTail(path);
        if (removed > 0)
          this.#logger?.warn(
            { path, bytes: removed },
            'cut a torn last line off a session file before appending',
          );
        this.#repaired.add(sessionId);
      }
      const text = records.map((record) => `${JSON.stringify(record)}\n`).join('');
      const handle = await open(path, 'a');
      try {
        await handle.write(text);
        if (this.#fsync) await handle.sync();
      } finally {
        await handle.close();
      }
    });
  }

  async load(sessionId: string): Promise<readonly SessionRecord[] | undefined> {
    const path = this.pathOf(sessionId);
    await this.#queues.get(sessionId);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw storageError(`Could not read session ${sessionId}`, path, error);
    }
    const parsed = parseJsonLines(text);
    if (parsed.corruptLines.length > 0) {
      this.#logger?.warn(
        { path, lines: parsed.corruptLines },
        'skipped session file lines that are not JSON records',
      );
    }
    return parsed.records;
  }

  async list(options: { cursor?: string; limit?: number } = {}): Promise<SessionPage> {
    const limit = options.limit ?? DEFAULT_PAGE;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new AgentError(
        'INVALID_INPUT',
        `limit must be a whole number of at least 1, got ${String(limit)}`,
      );
    }
    const all = await this.#allSummaries();
    let start = 0;
    if (options.cursor !== undefined) {
      const after = decodeCursor(options.cursor);
      start = all.findIndex((summary) => compareSummaries(summary, after) > 0);
      if (start === -1) start = all.length;
    }
    const sessions = all.slice(start, start + limit);
    const last = sessions.at(-1);
    return start + limit < all.length && last !== undefined
      ? { sessions, nextCursor: encodeCursor(last) }
      : { sessions };
  }

  async find(query: string): Promise<readonly SessionSummary[]> {
    const needle = query.toLowerCase();
    return (await this.#allSummaries()).filter(
      (summary) =>
        summary.sessionId.toLowerCase().startsWith(needle) || summary.title.toLowerCase().includes(needle),
    );
  }

  async delete(sessionId: string): Promise<void> {
    const path = this.pathOf(sessionId);
    return this.#serialize(sessionId, async () => {
      await rm(path, { force: true });
      this.#summaries.delete(sessionId);
      this.#repaired.delete(sessionId);
    });
  }

  /** Runs `work` after earlier work on the same session; failures surface as STORAGE_ERROR. */
  #serialize(sessionId: string, work: () => Promise<void>): Promise<void> {
    const previous = this.#queues.get(sessionId) ?? Promise.resolve();
    const next = previous.then(work).catch((error: unknown) => {
      throw error instanceof AgentError
        ? error
        : storageError(`Session ${sessionId} could not be written`, this.pathOf(sessionId), error);
    });
    const settled = next.catch(() => undefined);
    this.#queues.set(sessionId, settled);
    void settled.then(() => {
      if (this.#queues.get(sessionId) === settled) this.#queues.delete(sessionId);
    });
    return next;
  }

  async #allSummaries(): Promise<SessionSummary[]> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw storageError('Could not list sessions', this.directory, error);
    }
    const present = new Set<string>();
    const summaries = await Promise.all(
      names.map(async (name) => {
        const sessionId = sessionIdOfFileName(name);
        if (sessionId === undefined) return undefined;
        present.add(sessionId);
        return this.#summaryOf(sessionId, join(this.directory, name));
      }),
    );
    for (const sessionId of this.#summaries.keys())
      if (!present.has(sessionId)) this.#summaries.delete(sessionId);
    return summaries
      .filter((summary): summary is SessionSummary => summary !== undefined)
      .sort(compareSummaries);
  }

  async #summaryOf(sessionId: string, path: string): Promise<SessionSummary | undefined> {
    let info;
    try {
      info = await stat(path);
    } catch {
      return undefined;
    }
    const cached = this.#summaries.get(sessionId);
    if (
      cached !== undefined &&
      cached.inode === info.ino &&
      cached.size === info.size &&
      cached.mtimeMs === info.mtimeMs
    ) {
      return cached.summary.summary();
    }
    const handle = await open(path, 'r');
    try {
      let fold =
        cached !== undefined && cached.inode === info.ino && info.size >= cached.offset ? cached : undefined;
      if (fold !== undefined && !(await continues(handle, fold))) fold = undefined;
      fold ??= {
        inode: info.ino,
        size: 0,
        mtimeMs: 0,
        offset: 0,
        tail: Buffer.alloc(0),
        summary: summarizeRecords(sessionId),
      };
      const length = info.size - fold.offset;
      const buffer = Buffer.alloc(Math.max(0, length));
      if (length > 0) await handle.read(buffer, 0, length, fold.offset);
      const parsed = parseJsonLines(buffer.toString('utf8'));
      for (const record of parsed.records) fold.summary.add(record);
      fold.offset += parsed.completeBytes;
      fold.tail = Buffer.from(
        Buffer.concat([fold.tail, buffer.subarray(0, parsed.completeBytes)]).subarray(-TAIL_CHECK_BYTES),
      );
      fold.size = info.size;
      fold.mtimeMs = info.mtimeMs;
      this.#summaries.set(sessionId, fold);
      return fold.summary.summary();
    } finally {
      await handle.close();
    }
  }
}

/**
 * True when the file still holds, just before `offset`, the bytes folded last time: it was only
 * appended to. A session deleted and written again (even under a reused inode) fails this.
 */
async function continues(handle: FileHandle, cached: CachedSummary): Promise<boolean> {
  const length = cached.tail.length;
  if (length === 0) return cached.offset === 0;
  const bytes = Buffer.alloc(length);
  const { bytesRead } = await handle.read(bytes, 0, length, cached.offset - length);
  return bytesRead === length && bytes.equals(cached.tail);
}

function checkId(sessionId: string): string {
  if (typeof sessionId !== 'string' || sessionId === '') {
    throw new AgentError('INVALID_INPUT', 'A session id must be a non-empty string', {
      details: { sessionId },
    });
  }
  return sessionId;
}

/** Newest first, then by id so pages are stable. */
function compareSummaries(
  left: Pick<SessionSummary, 'updatedAt' | 'sessionId'>,
  right: Pick<SessionSummary, 'updatedAt' | 'sessionId'>,
): number {
  return (
    right.updatedAt - left.updatedAt ||
    (left.sessionId < right.sessionId ? -1 : left.sessionId > right.sessionId ? 1 : 0)
  );
}

function encodeCursor(summary: SessionSummary): string {
  return Buffer.from(JSON.stringify([summary.updatedAt, summary.sessionId])).toString('base64url');
}

function decodeCursor(cursor: string): Pick<SessionSummary, 'updatedAt' | 'sessionId'> {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'string') {
      return { updatedAt: value[0], sessionId: value[1] };
    }
  } catch {
    // Reported below.
  }
  throw new AgentError('INVALID_INPUT', 'The cursor is not one this storage returned', {
    details: { cursor },
  });
}

function storageError(message: string, path: string, cause: unknown): AgentError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new AgentError('STORAGE_ERROR', `${message}: ${reason}`, { cause, details: { path } });
}
