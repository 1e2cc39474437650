import { z } from 'zod';
import { HITL_CARD_STATUSES, hitlCardSchema, hitlResolvedPayloadSchema } from '../hitl/index.ts';
import { EventErrorSchema } from '../errors/index.ts';
import { FinishReasonSchema, IsoDateSchema, RunUsageSchema } from '../runs/index.ts';
import { MessageReferenceSchema, ReferenceKindSchema } from '../retrieval/references.ts';

/**
 * An uploaded file a message refers to.
 *
 * @example
 * { upload_id: 'u1', name: 'notes.md', media_type: 'text/markdown', size: 120 }
 */
export const AttachmentReferenceSchema = z.object({
  upload_id: z.string(),
  name: z.string(),
  media_type: z.string(),
  size: z.number(),
});
export type AttachmentReference = z.infer<typeof AttachmentReferenceSchema>;

/**
 * What the user sent, as the client gave it (uploads by reference, never their bytes).
 *
 * @example
 * { text: 'Summarise', attachments: [], skills: [{ name: 'review' }] }
 */
export const MessageInputSchema = z.object({
  text: z.string(),
  attachments: z.array(AttachmentReferenceSchema),
  skills: z.array(z.object({ name: z.string(), arguments: z.string().optional() })),
  /** `@` references (spec §4.14); absent in runs written before references existed. */
  references: z.array(MessageReferenceSchema).optional(),
});
export type MessageInput = z.infer<typeof MessageInputSchema>;

/**
 * `streaming` while text still arrives; `running` while a tool runs; `incomplete` when the run
 * ended before the part did.
 *
 * @example
 * PartStatusSchema.parse('incomplete');
 */
export const PartStatusSchema = z.enum(['streaming', 'running', 'complete', 'failed', 'incomplete']);
export type PartStatus = z.infer<typeof PartStatusSchema>;

/**
 * A piece of a message (spec §4.2), discriminated on `type`. Clients ignore part types they do
 * not know (a newer server may send more).
 *
 * @example
 * if (part.type === 'text') render(part.text);
 */
export const MessagePartSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('text'), text: z.string(), status: PartStatusSchema }),
    z.object({ type: z.literal('thinking'), text: z.string(), status: PartStatusSchema }),
    z.object({
      type: z.literal('tool_call'),
      call_id: z.string(),
      tool_name: z.string(),
      arguments: z.string(),
      status: PartStatusSchema,
    }),
    z.object({
      type: z.literal('tool_result'),
      call_id: z.string(),
      tool_name: z.string(),
      output: z.string(),
      is_error: z.boolean(),
      duration_ms: z.number(),
      status: PartStatusSchema,
    }),
    z.object({
      type: z.literal('error'),
      error: EventErrorSchema,
      fatal: z.boolean(),
      status: PartStatusSchema,
    }),
    z.object({
      type: z.literal('attachment'),
      upload_id: z.string(),
      name: z.string(),
      media_type: z.string(),
      size: z.number(),
      status: PartStatusSchema,
    }),
    /** An object the user attached with `@` (spec §4.14). */
    z.object({
      type: z.literal('reference'),
      kind: ReferenceKindSchema,
      id: z.string(),
      label: z.string(),
      status: PartStatusSchema,
    }),
    z.object({
      type: z.literal('skill'),
      name: z.string(),
      arguments: z.string().optional(),
      status: PartStatusSchema,
    }),
    /** An artifact the turn wrote or changed (spec §4.2 artifact_ref): the chip that opens the viewer. */
    z.object({
      type: z.literal('artifact'),
      artifact_id: z.string(),
      title: z.string(),
      kind: z.string(),
      version: z.number(),
      change: z.enum(['create', 'replace', 'edit', 'overflow']),
      call_id: z.string().optional(),
      status: PartStatusSchema,
    }),
    /** A HITL card (spec §4.5): `running` while it waits, with its resolution once it has one. */
    z.object({
      type: z.literal('hitl'),
      call_id: z.string(),
      card: hitlCardSchema,
      card_status: z.enum(HITL_CARD_STATUSES),
      resolution: hitlResolvedPayloadSchema.optional(),
      status: PartStatusSchema,
    }),
    /** A UI card a tool or an extension posted (spec §4.2 card, §4.6): drawn by the UI-schema renderer. */
    z.object({
      type: z.literal('card'),
      card_id: z.string(),
      source: z.string(),
      title: z.string().optional(),
      call_id: z.string().optional(),
      /** The UI document (see `UiDocumentSchema`), as posted. */
      schema: z.unknown(),
      status: PartStatusSchema,
    }),
  ])
  .meta({ id: 'MessagePart' });
export type MessagePart = z.infer<typeof MessagePartSchema>;
export type MessagePartType = MessagePart['type'];

/**
 * Where a message is in its life. Terminal: `complete`, `failed`, `cancelled`, `interrupted`.
 *
 * @example
 * MessageStatusSchema.parse('streaming');
 */
export const MessageStatusSchema = z.enum([
  'pending',
  'streaming',
  'complete',
  'failed',
  'cancelled',
  'interrupted',
]);
export type MessageStatus = z.infer<typeof MessageStatusSchema>;

/**
 * Where a message sits among the alternatives at its place in the tree: every alternative,
 * oldest first, this message included, and this one's index.
 *
 * @example
 * `${siblings.index + 1} / ${siblings.ids.length}`;
 */
export const SiblingInfoSchema = z.object({ ids: z.array(z.string()), index: z.number() });
export type SiblingInfo = z.infer<typeof SiblingInfoSchema>;

/**
 * One node of the message tree: a user message or the assistant's answer to it.
 *
 * @example
 * message.parts.filter((part) => part.type === 'text');
 */
export const ConversationMessageSchema = z
  .object({
    id: z.string(),
    role: z.enum(['user', 'assistant']),
    run_id: z.string(),
    /** The message before this one; null for the first user message. */
    parent_id: z.string().nullable(),
    status: MessageStatusSchema,
    parts: z.array(MessagePartSchema),
    created_at: IsoDateSchema,
    /** Filled in by the conversation Query; absent in a projection of events alone. */
    siblings: SiblingInfoSchema.optional(),
    model_id: z.string().nullable().optional(),
    usage: RunUsageSchema.optional(),
    /** Assistant messages whose run completed: why the reply ended, when the provider said. */
    finish_reason: FinishReasonSchema.optional(),
  })
  .meta({ id: 'Message' });
export type ConversationMessage = z.infer<typeof ConversationMessageSchema>;
