import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../database/index.ts';
import { ApiError } from '../errors/index.ts';
import type { SendOptions, SendResult } from '../runs/index.ts';
import { RunRepository, runViewOfRow } from '../storage/index.ts';

/** How long a key's first answer is kept: a retry comes within minutes, a day is generous. */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The scope of a key: one conversation's sends, or the route that creates a conversation with its message. */
export type IdempotencyScope = { conversationId: string } | 'new-conversation';

/** A key's first answer, with the conversation it went to. */
export interface IdempotentResult extends SendResult {
  conversation_id: string;
}

function scopeName(scope: IdempotencyScope): string {
  return scope === 'new-conversation' ? 'conversations' : `conversation:${scope.conversationId}`;
}

/** Key order does not change a body's meaning, so it does not change its hash either. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, entry]) => [key, canonical(entry)]),
  );
}

/** SHA-256 of a request body in canonical JSON. */
export function requestHash(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(body)))
    .digest('hex');
}

/**
 * Idempotent sends (issue 27): the first request with a key starts its run and writes the key in
 * the run's own transaction; a retry with the same key and body gets that first answer (the run as
 * it is now: pending, running or ended), one with another body is refused. The keys live in the
 * database, so a retry that reaches another server instance on PostgreSQL is answered the same.
 *
 * @example
 * const keys = new IdempotencyKeys(database.db);
 * const result = await keys.once({ conversationId }, key, body, (options) => runs.send(conversationId, body, options));
 */
export class IdempotencyKeys {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  /**
   * Runs `start` once per (scope, key): `start` must pass the options it is given to
   * `RunManager.send`, whose transaction records the key. Returns the result and whether it was
   * a replay of an earlier request.
   */
  async once(
    scope: IdempotencyScope,
    key: string,
    body: unknown,
    start: (options: SendOptions) => Promise<IdempotentResult>,
  ): Promise<{ result: IdempotentResult; replayed: boolean }> {
    const hash = requestHash(body);
    const earlier = await this.#replay(scope, key, hash);
    if (earlier !== undefined) return { result: earlier, replayed: true };
    try {
      const result = await start({
        onCreated: (transaction, created) => this.#record(transaction, scope, key, hash, created),
      });
      return { result, replayed: false };
    } catch (error) {
      // Two requests with one key at once: the second fails on the key (or on the conversation's
      // one run in flight) once the first commits, and answers with what the first created.
      const winner = await this.#replay(scope, key, hash);
      if (winner !== undefined) return { result: winner, replayed: true };
      throw error;
    }
  }

  async #replay(scope: IdempotencyScope, key: string, hash: string): Promise<IdempotentResult | undefined> {
    const row = await this.#db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('scope', '=', scopeName(scope))
      .where('key', '=', key)
      .where('created_at', '>', Date.now() - IDEMPOTENCY_KEY_LIFETIME_MS)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    if (row.request_hash !== hash) {
      throw new ApiError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was already used with a different request body; use a new key for a new request.',
        { details: { idempotency_key: key, conversation_id: row.conversation_id, run_id: row.run_id } },
      );
    }
    const run = await new RunRepository(this.#db).get(row.run_id);
    return {
      conversation_id: row.conversation_id,
      run: runViewOfRow(run),
      user_message_id: row.user_message_id,
      assistant_message_id: row.run_id,
      seq: Number(row.seq),
    };
  }

  async #record(
    transaction: Transaction<Schema>,
    scope: IdempotencyScope,
    key: string,
    hash: string,
    created: Omit<SendResult, 'run'>,
  ): Promise<void> {
    const now = Date.now();
    const run = await transaction
      .selectFrom('runs')
      .select('conversation_id')
      .where('id', '=', created.assistant_message_id)
      .executeTakeFirstOrThrow();
    // Expired keys go as new ones come: the table holds about a day of sends.
    await transaction
      .deleteFrom('idempotency_keys')
      .where('created_at', '<=', now - IDEMPOTENCY_KEY_LIFETIME_MS)
      .execute();
    await transaction
      .insertInto('idempotency_keys')
      .values({
        scope: scopeName(scope),
        key,
        request_hash: hash,
        conversation_id: run.conversation_id,
        run_id: created.assistant_message_id,
        user_message_id: created.user_message_id,
        seq: created.seq,
        created_at: now,
      })
      .execute();
  }
}
