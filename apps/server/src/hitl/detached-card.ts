import { randomUUID } from 'node:crypto';
import type { HitlAnswer, HitlCard, HitlCardDraft } from '@youyou/contracts';
import type { HitlCardRow } from './card-repository.ts';

/**
 * Decides a detached card's subject with its answer (a memory candidate stored or dropped); runs
 * before the answer is stored, so an error (memory switched off, decided already) leaves the card
 * pending and reaches the person who answered.
 */
export type CardSubjectHandler = (
  subject: NonNullable<HitlCard['subject']>,
  answer: HitlAnswer,
  card: HitlCard,
) => Promise<void>;

/** A card for a message whose run has ended: what it asks and what it decides. */
export interface DetachedCardOptions {
  conversationId: string;
  messageId: string;
  draft: Omit<HitlCardDraft, 'allowFreeInput' | 'freeInputHint' | 'timeoutSec'>;
  subject: NonNullable<HitlCard['subject']>;
}

/**
 * The card and its pending row. Free input is off — typed text has no run to go back to — and it
 * never expires; the call id names the subject, since no tool call waits on it.
 *
 * @example
 * const { card, row } = detachedCard(options, Date.now());
 */
export function detachedCard(
  options: DetachedCardOptions,
  now: number,
): { card: HitlCard; row: HitlCardRow } {
  const card: HitlCard = {
    id: randomUUID(),
    run_id: options.messageId,
    question: options.draft.question,
    kind: options.draft.kind,
    choices: options.draft.choices ?? [],
    allowFreeInput: false,
    timeoutSec: null,
    ...(options.draft.fields === undefined ? {} : { fields: options.draft.fields }),
    subject: options.subject,
    created_at: new Date(now).toISOString(),
  };
  const row: HitlCardRow = {
    id: card.id,
    conversation_id: options.conversationId,
    run_id: options.messageId,
    message_id: options.messageId,
    call_id: `${options.subject.type}:${options.subject.id}`,
    kind: card.kind,
    card: JSON.stringify(card),
    status: 'pending',
    resolution: null,
    client_key: null,
    instance_id: null,
    created_at: now,
    expires_at: null,
    resolved_at: null,
  };
  return { card, row };
}
