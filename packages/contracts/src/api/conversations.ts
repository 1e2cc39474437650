import { z } from 'zod';
import { EventEnvelopeSchema } from '../events/index.ts';
import { ConversationMessageSchema } from '../messages/index.ts';
import { IsoDateSchema, RunDescriptionSchema, RunSchema } from '../runs/index.ts';
import { MessageReferenceSchema } from '../retrieval/references.ts';

export const ConversationSchema = z
  .object({
    id: z.string(),
    project_id: z.string().nullable(),
    title: z.string(),
    title_source: z.enum(['none', 'auto', 'user']),
    model_id: z.string().nullable(),
    profile_id: z.string().nullable().meta({ description: 'The agent profile; null: the built-in one.' }),
    active_run_id: z.string().nullable(),
    in_flight_run_id: z.string().nullable().meta({ description: 'The run in flight, if any.' }),
    last_seq: z.number(),
    read_seq: z.number().meta({ description: 'How far the user has read; later events are unread.' }),
    waiting_for_user: z.boolean().meta({ description: 'A HITL card waits for the user’s answer.' }),
    created_at: IsoDateSchema,
    updated_at: IsoDateSchema,
  })
  .meta({ id: 'Conversation' });

export const ConversationPageSchema = z
  .object({ conversations: z.array(ConversationSchema), next_cursor: z.string().optional() })
  .meta({ id: 'ConversationPage' });

export const ConversationCreateSchema = z
  .object({
    project_id: z.string().nullable().optional(),
    title: z.string().max(500).optional(),
    model_id: z.string().max(200).nullable().optional(),
    profile_id: z
      .string()
      .max(128)
      .nullable()
      .optional()
      .meta({ description: 'Default: the profiles.default setting (the built-in profile).' }),
  })
  .meta({ id: 'ConversationCreate' });

export const ConversationUpdateSchema = z
  .object({
    title: z.string().trim().min(1).max(500).optional(),
    model_id: z.string().max(200).nullable().optional(),
    project_id: z.string().nullable().optional(),
    profile_id: z.string().max(128).nullable().optional(),
  })
  .meta({ id: 'ConversationUpdate' });

export const ConversationViewSchema = z
  .object({
    conversation: ConversationSchema,
    messages: z.array(ConversationMessageSchema),
    runs: z.array(RunDescriptionSchema).meta({ description: 'The runs of the messages shown, in order.' }),
    branch_length: z.number(),
    earlier_cursor: z.string().optional(),
    in_flight_run: RunSchema.nullable(),
    last_seq: z.number().meta({ description: 'Stream events after this seq (Last-Event-ID).' }),
  })
  .meta({ id: 'ConversationView' });

export const SendMessageSchema = z
  .object({
    text: z.string().max(1_000_000).optional(),
    attachments: z.array(z.string().min(1).max(128)).max(50).optional(),
    skills: z
      .array(z.object({ name: z.string().min(1).max(64), arguments: z.string().max(100_000).optional() }))
      .max(20)
      .optional(),
    references: z.array(MessageReferenceSchema).max(20).optional().meta({
      description: 'Objects attached with `@` (spec §4.14): files, artifacts, documents, knowledge.',
    }),
    model_id: z.string().max(200).optional(),
    edit_of: z
      .string()
      .max(128)
      .optional()
      .meta({ description: 'A user message this one replaces (a branch).' }),
    parent_message_id: z.string().max(128).optional().meta({
      description: 'The assistant message to answer after; default the end of the active branch.',
    }),
    previous_run_id: z.string().max(128).nullable().optional().meta({
      description: 'The run this turn follows (null: a new first message); default the active leaf.',
    }),
  })
  .meta({ id: 'SendMessage' });

export const RegenerateSchema = z
  .object({ model_id: z.string().max(200).optional() })
  .meta({ id: 'Regenerate' });

export const SendResultSchema = z
  .object({ run: RunSchema, user_message_id: z.string(), assistant_message_id: z.string(), seq: z.number() })
  .meta({ id: 'SendResult' });

export const ConversationStartSchema = z
  .object({
    conversation: ConversationCreateSchema.optional(),
    message: SendMessageSchema.omit({ edit_of: true, parent_message_id: true, previous_run_id: true }),
  })
  .meta({
    id: 'ConversationStart',
    description: 'A new conversation and its first message; nothing is kept if the message is refused.',
  });

export const ConversationStartResultSchema = SendResultSchema.extend({
  conversation: ConversationSchema,
}).meta({
  id: 'ConversationStartResult',
});

export const ReadSchema = z.object({ seq: z.number().int().min(0) }).meta({ id: 'ReadCursor' });

export const BranchSchema = z.object({ message_id: z.string().min(1).max(128) }).meta({ id: 'BranchSwitch' });

export const EventPageSchema = z
  .object({ events: z.array(EventEnvelopeSchema), last_seq: z.number() })
  .meta({ id: 'EventPage' });

export type Conversation = z.infer<typeof ConversationSchema>;
export type ConversationPage = z.infer<typeof ConversationPageSchema>;
export type ConversationCreate = z.infer<typeof ConversationCreateSchema>;
export type ConversationUpdate = z.infer<typeof ConversationUpdateSchema>;
export type ConversationView = z.infer<typeof ConversationViewSchema>;
export type SendMessage = z.infer<typeof SendMessageSchema>;
export type Regenerate = z.infer<typeof RegenerateSchema>;
export type SendResult = z.infer<typeof SendResultSchema>;
export type ConversationStart = z.infer<typeof ConversationStartSchema>;
export type ConversationStartResult = z.infer<typeof ConversationStartResultSchema>;
export type ReadCursor = z.infer<typeof ReadSchema>;
export type BranchSwitch = z.infer<typeof BranchSchema>;
export type EventPage = z.infer<typeof EventPageSchema>;

export const MessageSearchHitSchema = z
  .object({
    conversation_id: z.string(),
    conversation_title: z.string(),
    message_id: z.string().meta({ description: 'The message to scroll to in the conversation view.' }),
    role: z.enum(['user', 'assistant']),
    snippet: z.string(),
    highlights: z
      .array(z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }))
      .meta({ description: 'Where the terms occur in `snippet` (UTF-16 offsets, end exclusive).' }),
    created_at: IsoDateSchema,
  })
  .meta({ id: 'MessageSearchHit' });

export const MessageSearchResultSchema = z
  .object({ hits: z.array(MessageSearchHitSchema) })
  .meta({ id: 'MessageSearchResult' });

export type MessageSearchHit = z.infer<typeof MessageSearchHitSchema>;
export type MessageSearchResult = z.infer<typeof MessageSearchResultSchema>;
