import type { Interrupt, ResumeEntry } from '@ag-ui/core';
import {
  hitlAnswerSchema,
  type HitlAnswer,
  type HitlCard,
  type HitlCardView,
  type HitlRequestPayload,
} from '@youyou/contracts';
import { ApiError } from '../../errors/index.ts';

/** `Interrupt.reason` of a tool confirmation card (the confirmation policy asks before a call). */
export const TOOL_APPROVAL = 'tool_approval';
/** `Interrupt.reason` of a card the model asked with `ask_user`. */
export const USER_INPUT = 'user_input';

const TEXT_ANSWER = {
  type: 'object',
  required: ['type', 'text'],
  properties: { type: { const: 'text' }, text: { type: 'string', minLength: 1 } },
  additionalProperties: false,
} as const;

/**
 * The JSON Schema of the answers a card takes, as `Interrupt.responseSchema`: the workbench's own
 * answer objects (`POST /api/conversations/:id/cards/:card_id/answer`'s `answer`).
 */
export function responseSchemaOf(card: HitlCard): Record<string, unknown> {
  const free = card.allowFreeInput && card.confirmation === undefined ? [TEXT_ANSWER] : [];
  switch (card.kind) {
    case 'choice':
      return {
        oneOf: [
          {
            type: 'object',
            required: ['type', 'choice_id'],
            properties: {
              type: { const: 'choice' },
              choice_id: { enum: card.choices.map((choice) => choice.id) },
            },
            additionalProperties: false,
          },
          ...free,
        ],
      };
    case 'input':
      return TEXT_ANSWER;
    case 'confirm':
      return {
        oneOf: [
          {
            type: 'object',
            required: ['type', 'confirmed'],
            properties: {
              type: { const: 'confirm' },
              confirmed: { type: 'boolean' },
              ...(card.confirmation === undefined ? {} : { scope: { enum: ['once', 'conversation'] } }),
              reason: { type: 'string', maxLength: 2000 },
            },
            additionalProperties: false,
          },
          ...free,
        ],
      };
    case 'form':
      return {
        oneOf: [
          {
            type: 'object',
            required: ['type', 'values'],
            properties: {
              type: { const: 'form' },
              values: {
                type: 'object',
                properties: Object.fromEntries((card.fields ?? []).map((field) => [field.id, {}])),
                required: (card.fields ?? [])
                  .filter((field) => field.required === true)
                  .map((field) => field.id),
              },
            },
          },
          ...free,
        ],
      };
  }
}

/**
 * A waiting HITL card as an AG-UI interrupt: its id is the card's, a tool confirmation names the
 * call it approves, `responseSchema` says what answer it takes, and the whole card (choices with
 * their impact, the tool's readable arguments) rides in `metadata.youyou` for a front end to draw.
 *
 * @example
 * mapper.interrupt([interruptOf(event.payload)]);
 */
export function interruptOf(request: Pick<HitlRequestPayload, 'card' | 'call_id' | 'message_id'>): Interrupt {
  const { card } = request;
  return {
    id: card.id,
    reason: card.confirmation === undefined ? USER_INPUT : TOOL_APPROVAL,
    message: card.question,
    ...(card.confirmation === undefined ? {} : { toolCallId: card.confirmation.call_id }),
    responseSchema: responseSchemaOf(card),
    ...(card.expires_at === undefined ? {} : { expiresAt: card.expires_at }),
    metadata: { youyou: { card, call_id: request.call_id, message_id: request.message_id } },
  };
}

/** The interrupt of a card the cards API lists (a pending card found on resume). */
export function interruptOfView(view: HitlCardView): Interrupt {
  return interruptOf({ card: view.card, call_id: view.call_id, message_id: view.message_id });
}

/**
 * A resume entry's payload as a card answer: the workbench's answer object, or a shorthand — a
 * string is free text, a boolean a yes/no (allow once for a tool), `{ choice_id }` a choice,
 * `{ confirmed }` a yes/no, `{ values }` a form. Anything else is a structured 400.
 *
 * @example
 * answerOfPayload('第二个', card); // { type: 'text', text: '第二个' }
 */
export function answerOfPayload(entry: ResumeEntry, card: HitlCard): HitlAnswer {
  const payload: unknown = entry.payload;
  const refuse = (message: string): never => {
    throw new ApiError('INVALID_INPUT', `resume entry for ${entry.interruptId}: ${message}`, {
      details: { field: 'resume', interrupt_id: entry.interruptId, response_schema: responseSchemaOf(card) },
    });
  };
  if (typeof payload === 'string') return { type: 'text', text: payload };
  if (typeof payload === 'boolean') {
    return {
      type: 'confirm',
      confirmed: payload,
      ...(card.confirmation !== undefined && payload ? { scope: 'once' as const } : {}),
    };
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return refuse('the payload is an answer object (see responseSchema), a string or a boolean');
  }
  const object = payload as Record<string, unknown>;
  const typed =
    'type' in object
      ? object
      : 'choice_id' in object
        ? { type: 'choice', ...object }
        : 'confirmed' in object
          ? { type: 'confirm', ...object }
          : 'values' in object
            ? { type: 'form', ...object }
            : 'text' in object
              ? { type: 'text', ...object }
              : object;
  const parsed = hitlAnswerSchema.safeParse(typed);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refuse(`${issue?.path.join('.') || 'payload'}: ${issue?.message ?? 'not an answer'}`);
  }
  return parsed.data;
}
