import { z } from 'zod';
import { fieldPattern, formFieldSchema, FormValuesSchema } from '../ui-schema/index.ts';
import type { CardProblem } from '../ui-schema/index.ts';

/**
 * HITL cards (spec agent-system-skeleton-design-r4 §4.5): the question a run asks the user, the
 * options with the impact of each, the answer and how it was routed. Shared by the server (which
 * validates what the model proposes), the web UI (which renders it) and extensions.
 */

/** The kinds of card (§4.5). */
export const HITL_CARD_KINDS = ['choice', 'input', 'confirm', 'form'] as const;
export type HitlCardKind = (typeof HITL_CARD_KINDS)[number];

/** One option of a `choice` card; `impact` says what picking it will do and is required. */
export const hitlChoiceSchema = z.object({
  id: z.string().min(1).max(64),
  label: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
  impact: z.string().min(1).max(2000),
  recommended: z.boolean().optional(),
});
export type HitlChoice = z.infer<typeof hitlChoiceSchema>;

/** What a confirm card raised by the confirmation policy shows about the tool call. */
export const toolConfirmationSchema = z.object({
  tool_name: z.string(),
  description: z.string(),
  mutating: z.boolean(),
  /** The arguments as readable lines (name → a short rendering of the value). */
  arguments: z.array(z.object({ name: z.string(), value: z.string() })),
  /** The raw JSON, for "show raw". */
  raw_arguments: z.string(),
  call_id: z.string(),
});
export type ToolConfirmation = z.infer<typeof toolConfirmationSchema>;

/**
 * Which sub-agent raised a card (absent for the conversation's own turn): the run, its task as the
 * parent handed it, and the agent profile it started from, so two sub-agents' cards tell apart.
 */
export const hitlCardRequesterSchema = z.object({
  run_id: z.string(),
  task: z.string(),
  profile_id: z.string().nullable(),
  /** The profile's name when it had one (kept on the card: a renamed profile does not rewrite it). */
  profile_name: z.string().nullable(),
});
export type HitlCardRequester = z.infer<typeof hitlCardRequesterSchema>;

/** A card as a run proposes it (the `ask_user` tool's arguments), before it has an id. */
export const hitlCardDraftSchema = z.object({
  question: z.string().min(1).max(4000),
  kind: z.enum(HITL_CARD_KINDS),
  choices: z.array(hitlChoiceSchema).max(20).optional(),
  allowFreeInput: z.boolean().optional(),
  freeInputHint: z.string().max(500).optional(),
  /** Seconds to wait for an answer; null (the default) waits as long as the run lives. */
  timeoutSec: z.number().int().positive().max(604_800).nullable().optional(),
  fields: z.array(formFieldSchema).max(30).optional(),
});
export type HitlCardDraft = z.infer<typeof hitlCardDraftSchema>;

/** A card exactly as §4.5 defines it, plus the form fields and the confirmation details. */
export const hitlCardSchema = z.object({
  id: z.string(),
  run_id: z.string(),
  question: z.string(),
  kind: z.enum(HITL_CARD_KINDS),
  choices: z.array(hitlChoiceSchema),
  allowFreeInput: z.boolean(),
  freeInputHint: z.string().optional(),
  timeoutSec: z.number().nullable(),
  fields: z.array(formFieldSchema).optional(),
  confirmation: toolConfirmationSchema.optional(),
  /** The sub-agent that asks, when a sub-agent raised the card. */
  subagent: hitlCardRequesterSchema.optional(),
  /**
   * What a card raised outside a waiting tool call decides (no run waits on it): a memory
   * candidate proposed after a run (spec §4.13 — its confirmation is a card like any other).
   */
  subject: z.object({ type: z.literal('memory.candidate'), id: z.string() }).optional(),
  /** ISO 8601; set when `timeoutSec` is. */
  expires_at: z.string().optional(),
  created_at: z.string(),
});
export type HitlCard = z.infer<typeof hitlCardSchema>;

/** One answer per card (§4.5): a choice, free text, a yes/no, or form values. */
export const hitlAnswerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('choice'), choice_id: z.string().min(1) }),
  z.object({ type: z.literal('text'), text: z.string().min(1).max(20_000) }),
  z.object({
    type: z.literal('confirm'),
    confirmed: z.boolean(),
    /** For tool confirmations: allow this once, or for the rest of the conversation. */
    scope: z.enum(['once', 'conversation']).optional(),
    /** Why the user said no; the model is told. */
    reason: z.string().max(2000).optional(),
  }),
  z.object({
    type: z.literal('form'),
    values: FormValuesSchema,
  }),
]);
export type HitlAnswer = z.infer<typeof hitlAnswerSchema>;

/** The body of `POST /api/conversations/:id/cards/:card_id/answer`. */
export const hitlAnswerRequestSchema = z.object({
  answer: hitlAnswerSchema,
  /** The same key on a retry returns the first outcome instead of a conflict. */
  client_key: z.string().min(1).max(200).optional(),
});
export type HitlAnswerRequest = z.infer<typeof hitlAnswerRequestSchema>;

/** The three ways free input is taken (§4.5, D8). */
export const FREE_INPUT_PATHS = ['choice', 'answer', 'new_request'] as const;
export type FreeInputPath = (typeof FREE_INPUT_PATHS)[number];

/** How free text was classified, and by what. */
export const freeInputRouteSchema = z.object({
  path: z.enum(FREE_INPUT_PATHS),
  /** `rule`: command prefix, option id, label or ordinal; `model`: the lightweight model; `default`: neither decided. */
  by: z.enum(['rule', 'model', 'default']),
  reason: z.string(),
  /** For path `choice`. */
  choice_id: z.string().optional(),
});
export type FreeInputRoute = z.infer<typeof freeInputRouteSchema>;

/** How a card ended. */
export const HITL_CARD_STATUSES = ['pending', 'answered', 'expired', 'cancelled', 'superseded'] as const;
export type HitlCardStatus = (typeof HITL_CARD_STATUSES)[number];

/** Who decided a tool call (spec §4.8 audit). */
export const TOOL_DECIDERS = ['policy', 'user', 'conversation_grant', 'hook', 'settings'] as const;
export type ToolDecider = (typeof TOOL_DECIDERS)[number];

/** The payload of `hitl.request`: the card, and the message and tool call that wait for it. */
export const hitlRequestPayloadSchema = z.object({
  message_id: z.string(),
  /** The tool call that waits for it. */
  call_id: z.string(),
  card: hitlCardSchema,
});
export type HitlRequestPayload = z.infer<typeof hitlRequestPayloadSchema>;

/** The payload of `hitl.resolved`: how the card ended and, for free input, how it was routed. */
export const hitlResolvedPayloadSchema = z.object({
  message_id: z.string(),
  card_id: z.string(),
  status: z.enum(['answered', 'expired', 'cancelled', 'superseded']),
  /** What the card resolved as (for free text taken as a choice: the choice). */
  answer: hitlAnswerSchema.optional(),
  /** The text the user typed, when the answer came from free input. */
  free_text: z.string().optional(),
  route: freeInputRouteSchema.optional(),
  /** For expired/cancelled/superseded: why. */
  reason: z.string().optional(),
  /**
   * Set when this card was answered by the answer to another: "allow for this conversation" on a
   * card resolves the other cards waiting for the same tool in the conversation (its twins).
   */
  answered_with_card_id: z.string().optional(),
  resolved_at: z.string(),
});
export type HitlResolvedPayload = z.infer<typeof hitlResolvedPayloadSchema>;

/**
 * The HITL event types and their payloads, spread into the contract's event registry.
 *
 * @example
 * HITL_EVENT_PAYLOAD_SCHEMAS['hitl.resolved'].parse(event.payload);
 */
export const HITL_EVENT_PAYLOAD_SCHEMAS = {
  'hitl.request': hitlRequestPayloadSchema,
  'hitl.resolved': hitlResolvedPayloadSchema,
} as const;

/** A card with its state, as the cards API returns it. */
export const hitlCardViewSchema = z.object({
  card: hitlCardSchema,
  conversation_id: z.string(),
  message_id: z.string(),
  call_id: z.string(),
  status: z.enum(HITL_CARD_STATUSES),
  resolution: hitlResolvedPayloadSchema.nullable(),
});
export type HitlCardView = z.infer<typeof hitlCardViewSchema>;

/** What a successful answer returns. */
export interface HitlAnswerResult {
  card: HitlCardView;
  /** True when this call repeated an earlier one with the same client key. */
  replayed: boolean;
  /** When the text was taken as a new request: the run it started. */
  new_run_id?: string;
}

/**
 * Checks a card the model (or a plugin) proposes: the schema, plus the §4.5 rules zod cannot say
 * alone — a `choice` card has choices, choice ids are unique, at most one is recommended, a `form`
 * card has fields with unique ids and options for selects. Returns the problems, empty when fine.
 *
 * @example
 * const problems = cardDraftProblems({ question: 'Format?', kind: 'choice', choices: [] });
 * // [{ path: 'choices', message: 'a choice card needs at least two choices' }]
 */
export function cardDraftProblems(input: unknown): CardProblem[] {
  const problems: CardProblem[] = [];
  const parsed = hitlCardDraftSchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push({
        path: issue.path.join('.') || '(card)',
        message:
          issue.path.at(-1) === 'impact' && issue.code === 'invalid_type'
            ? 'every choice needs an impact: what picking it will do'
            : issue.message,
      });
    }
  }
  // The rules below read the raw input too, so one answer lists everything to fix.
  const card = (typeof input === 'object' && input !== null ? input : {}) as {
    kind?: unknown;
    choices?: unknown;
    fields?: unknown;
    allowFreeInput?: unknown;
  };
  const choices = Array.isArray(card.choices)
    ? (card.choices as { id?: unknown; recommended?: unknown }[])
    : [];
  if (card.kind === 'choice' && choices.length < 2) {
    problems.push({ path: 'choices', message: 'a choice card needs at least two choices' });
  }
  if (typeof card.kind === 'string' && card.kind !== 'choice' && choices.length > 0) {
    problems.push({ path: 'choices', message: `a ${card.kind} card has no choices; use kind "choice"` });
  }
  const seen = new Set<unknown>();
  for (const [index, choice] of choices.entries()) {
    if (seen.has(choice?.id)) {
      problems.push({ path: `choices.${index}.id`, message: `duplicate choice id "${String(choice?.id)}"` });
    }
    seen.add(choice?.id);
  }
  if (choices.filter((choice) => choice?.recommended === true).length > 1) {
    problems.push({ path: 'choices', message: 'at most one choice may be recommended' });
  }
  const fields = Array.isArray(card.fields)
    ? (card.fields as { id?: unknown; type?: unknown; options?: unknown }[])
    : [];
  if (card.kind === 'form' && fields.length === 0) {
    problems.push({ path: 'fields', message: 'a form card needs at least one field' });
  }
  if (typeof card.kind === 'string' && card.kind !== 'form' && fields.length > 0) {
    problems.push({ path: 'fields', message: `a ${card.kind} card has no fields; use kind "form"` });
  }
  const fieldIds = new Set<unknown>();
  for (const [index, field] of fields.entries()) {
    if (fieldIds.has(field?.id)) {
      problems.push({ path: `fields.${index}.id`, message: `duplicate field id "${String(field?.id)}"` });
    }
    fieldIds.add(field?.id);
    if (
      (field?.type === 'select' || field?.type === 'multiselect') &&
      !(Array.isArray(field.options) && field.options.length > 0)
    ) {
      problems.push({
        path: `fields.${index}.options`,
        message: `a ${String(field.type)} field needs options`,
      });
    }
    if (typeof (field as { pattern?: unknown }).pattern === 'string') {
      const pattern = (field as { pattern: string }).pattern;
      if (fieldPattern({ pattern }) === undefined)
        problems.push({ path: `fields.${index}.pattern`, message: 'is not a valid regular expression' });
    }
  }
  if (card.kind === 'input' && card.allowFreeInput === false) {
    problems.push({
      path: 'allowFreeInput',
      message: 'an input card is free input; drop allowFreeInput: false',
    });
  }
  return problems;
}
