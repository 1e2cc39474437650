import type { HitlCard, HitlCardStatus, HitlCardView, HitlResolvedPayload } from '@youyou/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { HitlCardsTable, Schema } from '../database/index.ts';

export type HitlCardRow = Selectable<HitlCardsTable>;

export function cardViewOfRow(row: HitlCardRow): HitlCardView {
  return {
    card: JSON.parse(row.card) as HitlCard,
    conversation_id: row.conversation_id,
    message_id: row.message_id,
    call_id: row.call_id,
    status: row.status,
    resolution: row.resolution === null ? null : (JSON.parse(row.resolution) as HitlResolvedPayload),
  };
}

/**
 * HITL cards: one row per card, `pending` until its one resolution. `resolve` is a conditional
 * update, so of two answers racing (two tabs, two servers) exactly one wins.
 *
 * @example
 * const won = await cards.resolve(cardId, resolution, 'key-1');
 */
export class HitlCardRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async insert(row: HitlCardRow, db: Kysely<Schema> = this.#db): Promise<void> {
    await db.insertInto('hitl_cards').values(row).execute();
  }

  async find(id: string, db: Kysely<Schema> = this.#db): Promise<HitlCardRow | undefined> {
    return db.selectFrom('hitl_cards').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async list(
    conversationId: string,
    status?: HitlCardStatus,
    db: Kysely<Schema> = this.#db,
  ): Promise<HitlCardRow[]> {
    let query = db.selectFrom('hitl_cards').selectAll().where('conversation_id', '=', conversationId);
    if (status !== undefined) query = query.where('status', '=', status);
    return query.orderBy('created_at').execute();
  }

  async pendingOfRun(runId: string, db: Kysely<Schema> = this.#db): Promise<HitlCardRow[]> {
    return db
      .selectFrom('hitl_cards')
      .selectAll()
      .where('run_id', '=', runId)
      .where('status', '=', 'pending')
      .execute();
  }

  /** Conversations among `ids` with a card waiting for the user. */
  async waitingConversations(ids: readonly string[], db: Kysely<Schema> = this.#db): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await db
      .selectFrom('hitl_cards')
      .select('conversation_id')
      .distinct()
      .where('conversation_id', 'in', [...ids])
      .where('status', '=', 'pending')
      .execute();
    return new Set(rows.map((row) => row.conversation_id));
  }

  /** Moves a pending card to its resolution; false when it was no longer pending. */
  async resolve(
    id: string,
    resolution: HitlResolvedPayload,
    clientKey: string | null,
    db: Kysely<Schema> = this.#db,
  ): Promise<boolean> {
    const result = await db
      .updateTable('hitl_cards')
      .set({
        status: resolution.status,
        resolution: JSON.stringify(resolution),
        client_key: clientKey,
        resolved_at: Date.parse(resolution.resolved_at),
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
