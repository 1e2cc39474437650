import { HITL_CARD_STATUSES, hitlCardSchema, hitlResolvedPayloadSchema } from '@youyou/contracts';
import { z } from '@hono/zod-openapi';
import { ISODate } from './common.ts';

const RunStatus = z.enum([
  'pending',
  'running',
  'waiting_hitl',
  'completed',
  'failed',
  'cancelled',
  'interrupted',
]);
const RunPhase = z.enum(['pending', 'thinking', 'acting', 'responding', 'done']);
const PartStatus = z.enum(['streaming', 'running', 'complete', 'failed', 'incomplete']);

export const EventErrorSchema = z
  .object({
    code: z.string(),
    message: z.string(),
    retryable: z.boolean(),
    source: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('EventError');

export const RunUsageSchema = z
  .object({
    input_tokens: z.number(),
    output_tokens: z.number(),
    tool_calls: z.number(),
    model_calls: z.number(),
    duration_ms: z.number(),
  })
  .openapi('RunUsage');

export const ConversationSchema = z
  .object({
    id: z.string(),
    project_id: z.string().nullable(),
    title: z.string(),
    title_source: z.enum(['none', 'auto', 'user']),
    model_id: z.string().nullable(),
    active_run_id: z.string().nullable(),
    in_flight_run_id: z.string().nullable().openapi({ description: 'The run in flight, if any.' }),
    last_seq: z.number(),
    read_seq: z.number().openapi({ description: 'How far the user has read; later events are unread.' }),
    created_at: ISODate,
    updated_at: ISODate,
  })
  .openapi('Conversation');

export const ConversationPageSchema = z
  .object({ conversations: z.array(ConversationSchema), next_cursor: z.string().optional() })
  .openapi('ConversationPage');

export const ConversationCreateSchema = z
  .object({
    project_id: z.string().nullable().optional(),
    title: z.string().max(500).optional(),
    model_id: z.string().max(200).nullable().optional(),
  })
  .openapi('ConversationCreate');

export const ConversationUpdateSchema = z
  .object({
    title: z.string().trim().min(1).max(500).optional(),
    model_id: z.string().max(200).nullable().optional(),
    project_id: z.string().nullable().optional(),
  })
  .openapi('ConversationUpdate');

export const RunSchema = z
  .object({
    id: z.string(),
    conversation_id: z.string(),
    project_id: z.string().nullable(),
    parent_run_id: z.string().nullable(),
    previous_run_id: z.string().nullable(),
    user_message_id: z.string().nullable(),
    kind: z.enum(['conversation', 'subagent', 'tool', 'session']),
    status: RunStatus,
    phase: RunPhase,
    model_id: z.string().nullable(),
    error: z.unknown(),
    usage: z.unknown(),
    created_at: ISODate,
    started_at: ISODate.nullable(),
    ended_at: ISODate.nullable(),
  })
  .openapi('Run');

export const MessagePartSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('text'), text: z.string(), status: PartStatus }),
    z.object({ type: z.literal('thinking'), text: z.string(), status: PartStatus }),
    z.object({
      type: z.literal('tool_call'),
      call_id: z.string(),
      tool_name: z.string(),
      arguments: z.string(),
      status: PartStatus,
    }),
    z.object({
      type: z.literal('tool_result'),
      call_id: z.string(),
      tool_name: z.string(),
      output: z.string(),
      is_error: z.boolean(),
      duration_ms: z.number(),
      status: PartStatus,
    }),
    z.object({ type: z.literal('error'), error: EventErrorSchema, fatal: z.boolean(), status: PartStatus }),
    z.object({
      type: z.literal('attachment'),
      upload_id: z.string(),
      name: z.string(),
      media_type: z.string(),
      size: z.number(),
      status: PartStatus,
    }),
    z.object({
      type: z.literal('skill'),
      name: z.string(),
      arguments: z.string().optional(),
      status: PartStatus,
    }),
    z.object({
      type: z.literal('artifact'),
      artifact_id: z.string(),
      title: z.string(),
      kind: z.string(),
      version: z.number(),
      change: z.enum(['create', 'replace', 'edit', 'overflow']),
      call_id: z.string().optional(),
      status: PartStatus,
    }),
    z.object({
      type: z.literal('hitl'),
      call_id: z.string(),
      card: hitlCardSchema,
      card_status: z.enum(HITL_CARD_STATUSES),
      resolution: hitlResolvedPayloadSchema.optional(),
      status: PartStatus,
    }),
  ])
  .openapi('MessagePart');

export const MessageSchema = z
  .object({
    id: z.string(),
    role: z.enum(['user', 'assistant']),
    run_id: z.string(),
    parent_id: z.string().nullable(),
    status: z.enum(['pending', 'streaming', 'complete', 'failed', 'cancelled', 'interrupted']),
    parts: z.array(MessagePartSchema),
    created_at: ISODate,
    siblings: z.object({ ids: z.array(z.string()), index: z.number() }).optional(),
    model_id: z.string().nullable().optional(),
    usage: RunUsageSchema.optional(),
  })
  .openapi('Message');

const RunDescriptionSchema = z
  .object({
    id: z.string(),
    conversation_id: z.string(),
    parent_run_id: z.string().nullable(),
    previous_run_id: z.string().nullable(),
    user_message_id: z.string().nullable(),
    kind: z.enum(['conversation', 'subagent', 'tool', 'session']),
    status: RunStatus,
    phase: RunPhase,
    model_id: z.string().nullable(),
    created_at: ISODate,
  })
  .openapi('RunDescription');

export const ConversationViewSchema = z
  .object({
    conversation: ConversationSchema,
    messages: z.array(MessageSchema),
    runs: z.array(RunDescriptionSchema).openapi({ description: 'The runs of the messages shown, in order.' }),
    branch_length: z.number(),
    earlier_cursor: z.string().optional(),
    in_flight_run: RunSchema.nullable(),
    last_seq: z.number().openapi({ description: 'Stream events after this seq (Last-Event-ID).' }),
  })
  .openapi('ConversationView');

export const SendMessageSchema = z
  .object({
    text: z.string().max(1_000_000).optional(),
    attachments: z.array(z.string().min(1).max(128)).max(50).optional(),
    skills: z
      .array(z.object({ name: z.string().min(1).max(64), arguments: z.string().max(100_000).optional() }))
      .max(20)
      .optional(),
    model_id: z.string().max(200).optional(),
    edit_of: z
      .string()
      .max(128)
      .optional()
      .openapi({ description: 'A user message this one replaces (a branch).' }),
    parent_message_id: z.string().max(128).optional().openapi({
      description: 'The assistant message to answer after; default the end of the active branch.',
    }),
    previous_run_id: z.string().max(128).nullable().optional().openapi({
      description: 'The run this turn follows (null: a new first message); default the active leaf.',
    }),
  })
  .openapi('SendMessage');

export const RegenerateSchema = z.object({ model_id: z.string().max(200).optional() }).openapi('Regenerate');

export const SendResultSchema = z
  .object({ run: RunSchema, user_message_id: z.string(), assistant_message_id: z.string(), seq: z.number() })
  .openapi('SendResult');

export const ReadSchema = z.object({ seq: z.number().int().min(0) }).openapi('ReadCursor');

export const BranchSchema = z.object({ message_id: z.string().min(1).max(128) }).openapi('BranchSwitch');

export const EventSchema = z
  .object({
    seq: z.number(),
    run_id: z.string().nullable(),
    conversation_id: z.string(),
    ts: ISODate,
    v: z.number(),
    type: z.string(),
    // Payloads are typed per event type in the client (WorkbenchEvent); here, any JSON object.
    payload: z.record(z.string(), z.any()),
  })
  .openapi('Event');

export const EventPageSchema = z
  .object({ events: z.array(EventSchema), last_seq: z.number() })
  .openapi('EventPage');
