import { AgentError } from '../errors/index.ts';
import type { SessionRecord, SessionRecordInit } from './session-record.ts';
import type { SessionStorage } from './session-storage.ts';

/**
 * Appends a session's records in order. A failed append keeps its records queued and reports
 * STORAGE_ERROR; the next write retries them first, so a storage hiccup loses nothing.
 */
export class SessionWriter {
  readonly #storage: SessionStorage | undefined;
  readonly #sessionId: string;
  #sequence: number;
  #pending: SessionRecord[] = [];

  constructor(storage: SessionStorage | undefined, sessionId: string, nextSequence: number) {
    this.#storage = storage;
    this.#sessionId = sessionId;
    this.#sequence = nextSequence;
  }

  /** Returns the error when the storage refused; the records stay queued for the next write. */
  async write(...records: readonly SessionRecordInit[]): Promise<AgentError | undefined> {
    const timestamp = Date.now();
    for (const record of records) {
      this.#pending.push({ ...record, sequence: this.#sequence++, timestamp } as SessionRecord);
    }
    return this.flush();
  }

  async flush(): Promise<AgentError | undefined> {
    if (this.#storage === undefined) {
      this.#pending = [];
      return undefined;
    }
    if (this.#pending.length === 0) return undefined;
    const batch = this.#pending;
    try {
      await this.#storage.append(this.#sessionId, batch);
      this.#pending = this.#pending === batch ? [] : this.#pending.slice(batch.length);
      return undefined;
    } catch (error) {
      return AgentError.fromUnknown(error, 'STORAGE_ERROR', { source: 'storage', retryable: true });
    }
  }

  get pendingCount(): number {
    return this.#pending.length;
  }
}
