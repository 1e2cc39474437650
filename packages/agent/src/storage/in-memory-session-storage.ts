import type { SessionRecord } from '../session/index.ts';
import type { SessionPage, SessionStorage, SessionSummary } from '../session/index.ts';
import { summarizeRecords, type SummaryAccumulator } from './session-summary.ts';

/**
 * Sessions kept in process memory: for tests, and for programs that need no persistence.
 *
 * @example
 * const agent = await new AgentBuilder({ cwd }).addProvider(p).setSessionStorage(new InMemorySessionStorage()).build();
 */
export class InMemorySessionStorage implements SessionStorage {
  readonly #sessions = new Map<string, { records: SessionRecord[]; summary: SummaryAccumulator }>();

  async append(sessionId: string, records: readonly SessionRecord[]): Promise<void> {
    let session = this.#sessions.get(sessionId);
    if (session === undefined) {
      session = { records: [], summary: summarizeRecords(sessionId) };
      this.#sessions.set(sessionId, session);
    }
    for (const record of records) {
      session.records.push(structuredClone(record));
      session.summary.add(record);
    }
  }

  async load(sessionId: string): Promise<readonly SessionRecord[] | undefined> {
    const session = this.#sessions.get(sessionId);
    return session === undefined ? undefined : structuredClone(session.records);
  }

  async list(options: { cursor?: string; limit?: number } = {}): Promise<SessionPage> {
    const all = this.#summaries();
    const offset = options.cursor === undefined ? 0 : Number.parseInt(options.cursor, 10) || 0;
    // A page of nothing would hand back the same cursor forever.
    const limit = Math.max(1, Math.floor(options.limit ?? 50));
    const sessions = all.slice(offset, offset + limit);
    return offset + limit < all.length ? { sessions, nextCursor: String(offset + limit) } : { sessions };
  }

  async find(query: string): Promise<readonly SessionSummary[]> {
    const needle = query.toLowerCase();
    return this.#summaries().filter(
      (summary) => summary.sessionId.startsWith(query) || summary.title.toLowerCase().includes(needle),
    );
  }

  async delete(sessionId: string): Promise<void> {
    this.#sessions.delete(sessionId);
  }

  #summaries(): SessionSummary[] {
    return [...this.#sessions.values()]
      .map((session) => session.summary.summary())
      .sort((a, b) => b.updatedAt - a.updatedAt);
  }
}
