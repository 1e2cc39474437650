import type { Kysely } from 'kysely';
import type { Schema } from '../database/index.ts';

/**
 * "Allow for this conversation": tools the user let run without asking again, per conversation.
 *
 * @example
 * await grants.add(conversationId, 'write_file', cardId);
 * await grants.has(conversationId, 'write_file'); // true
 */
export class ToolGrantRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async has(conversationId: string, toolName: string): Promise<boolean> {
    const row = await this.#db
      .selectFrom('tool_grants')
      .select('tool_name')
      .where('conversation_id', '=', conversationId)
      .where('tool_name', '=', toolName)
      .executeTakeFirst();
    return row !== undefined;
  }

  async add(conversationId: string, toolName: string, cardId: string | null): Promise<void> {
    await this.#db
      .insertInto('tool_grants')
      .values({
        conversation_id: conversationId,
        tool_name: toolName,
        card_id: cardId,
        created_at: Date.now(),
      })
      .onConflict((conflict) => conflict.columns(['conversation_id', 'tool_name']).doNothing())
      .execute();
  }

  async list(conversationId: string): Promise<string[]> {
    const rows = await this.#db
      .selectFrom('tool_grants')
      .select('tool_name')
      .where('conversation_id', '=', conversationId)
      .orderBy('tool_name')
      .execute();
    return rows.map((row) => row.tool_name);
  }

  async remove(conversationId: string, toolName: string): Promise<void> {
    await this.#db
      .deleteFrom('tool_grants')
      .where('conversation_id', '=', conversationId)
      .where('tool_name', '=', toolName)
      .execute();
  }
}
