/** The table of idempotent sends (migration 0094, issue 27). */

export interface IdempotencyKeysTable {
  /** `conversation:<id>` for a send into a conversation; `conversations` for a new one with its message. */
  scope: string;
  /** The client's `Idempotency-Key`. */
  key: string;
  /** SHA-256 of the request body the key was first used with. */
  request_hash: string;
  conversation_id: string;
  run_id: string;
  user_message_id: string;
  /** The seq of the run's `run.created` event. */
  seq: number;
  created_at: number;
}

export interface IdempotencySchema {
  idempotency_keys: IdempotencyKeysTable;
}
