import { z } from 'zod';
import { EventErrorSchema } from '../errors/index.ts';
import { MessageInputSchema } from '../messages/index.ts';
import {
  FinishReasonSchema,
  RunDescriptionSchema,
  RunPhaseSchema,
  RunStatusSchema,
  RunUsageSchema,
} from '../runs/index.ts';

/**
 * The payload schema of each event type of the run and message life cycle (spec §4.2). Other
 * concepts keep their payloads in their own folder (`hitl/`, `plans/`, …) as a map like this one
 * and spread it into `EVENT_PAYLOAD_SCHEMAS` in `./registry.ts`.
 *
 * @example
 * RUN_EVENT_PAYLOAD_SCHEMAS['message.delta'].parse({ message_id: 'm1', text: 'Hel' });
 */
export const RUN_EVENT_PAYLOAD_SCHEMAS = {
  'run.created': z.object({
    run: RunDescriptionSchema,
    input: MessageInputSchema,
    user_message_id: z.string(),
    assistant_message_id: z.string(),
    /** Set when this run answers the same user message again (regenerate). */
    regenerated_from: z.string().optional(),
  }),
  'run.phase': z.object({ phase: RunPhaseSchema, status: RunStatusSchema }),
  /**
   * One step of an extension's workflow in this run (spec §4.6 "each step visible as a run
   * phase"): the run's phase stays `acting` (the closed RUN_PHASES); this says which step it is
   * at, as each starts and ends. `code` is the stable error code of a step that failed.
   */
  'run.step': z.object({
    workflow_id: z.string(),
    workflow_title: z.string(),
    step_id: z.string(),
    title: z.string(),
    /** From 1, in the order the steps ran (a loop through `next` counts again). */
    index: z.number().int().positive(),
    /** The workflow's declared steps. */
    count: z.number().int().positive(),
    status: z.enum(['running', 'done', 'failed']),
    code: z.string().optional(),
  }),
  'message.delta': z.object({ message_id: z.string(), text: z.string() }),
  'thinking.delta': z.object({ message_id: z.string(), text: z.string() }),
  'tool.call': z.object({
    message_id: z.string(),
    call_id: z.string(),
    tool_name: z.string(),
    arguments: z.string(),
    tool_run_id: z.string(),
  }),
  'tool.result': z.object({
    message_id: z.string(),
    call_id: z.string(),
    tool_name: z.string(),
    output: z.string(),
    success: z.boolean(),
    duration_ms: z.number(),
    tool_run_id: z.string(),
    /** Files the result produced, stored as uploads of the conversation (an MCP tool's images). */
    attachments: z
      .array(z.object({ upload_id: z.string(), name: z.string(), media_type: z.string(), size: z.number() }))
      .optional(),
  }),
  'context.compacted': z.object({
    strategy: z.enum(['summary', 'truncation']),
    tokens_before: z.number(),
    tokens_after: z.number(),
    messages_removed: z.number(),
  }),
  /** A problem the run survives (a storage hiccup); a fatal one arrives as run.failed. */
  error: z.object({ message_id: z.string(), error: EventErrorSchema }),
  'run.completed': z.object({
    message_id: z.string(),
    usage: RunUsageSchema,
    /** Why the reply ended (`length`, `content_filter`, `refusal` …), when the provider said. */
    finish_reason: FinishReasonSchema.optional(),
  }),
  'run.failed': z.object({
    message_id: z.string(),
    error: EventErrorSchema,
    usage: RunUsageSchema.optional(),
  }),
  'run.cancelled': z.object({
    message_id: z.string(),
    usage: RunUsageSchema.optional(),
    /** `superseded`: the user's reply to a waiting card was another request, which started a new turn. */
    reason: z.enum(['superseded']).optional(),
  }),
  'run.interrupted': z.object({ message_id: z.string(), reason: z.enum(['crash', 'shutdown']) }),
} as const;

/**
 * Payloads of the conversation itself: `conversation.updated` carries only the fields that
 * changed; `session.record` is a record of the agent's session (one source of truth), stored in
 * the log and never streamed, so its record is opaque here.
 *
 * @example
 * CONVERSATION_EVENT_PAYLOAD_SCHEMAS['conversation.updated'].parse({ title: 'Notes' });
 */
export const CONVERSATION_EVENT_PAYLOAD_SCHEMAS = {
  'conversation.updated': z.object({
    title: z.string().optional(),
    title_source: z.enum(['none', 'auto', 'user']).optional(),
    active_run_id: z.string().nullable().optional(),
    /** Set when a run starts, null when it ends. */
    in_flight_run_id: z.string().nullable().optional(),
    /** The user read up to here (on any device). */
    read_seq: z.number().optional(),
    model_id: z.string().nullable().optional(),
    project_id: z.string().nullable().optional(),
    /** The agent profile its next runs use; null: the built-in one. */
    profile_id: z.string().nullable().optional(),
  }),
  'session.record': z.object({ record: z.unknown() }),
} as const;
