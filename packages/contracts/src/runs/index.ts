import { z } from 'zod';

/**
 * Run states (spec §4.2). Terminal: `completed`, `failed`, `cancelled`, `interrupted`.
 *
 * @example
 * RUN_STATUSES.includes('waiting_hitl'); // true
 */
export const RUN_STATUSES = [
  'pending',
  'running',
  'waiting_hitl',
  'completed',
  'failed',
  'cancelled',
  'interrupted',
] as const;
export const RunStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/**
 * States a run can still leave; one such top-level run per conversation at a time.
 *
 * @example
 * IN_FLIGHT_STATUSES.has(run.status); // the stop button shows
 */
export const IN_FLIGHT_STATUSES: ReadonlySet<RunStatus> = new Set<RunStatus>([
  'pending',
  'running',
  'waiting_hitl',
]);

/**
 * What a running run is doing, for the status line.
 *
 * @example
 * RunPhaseSchema.parse('thinking');
 */
export const RUN_PHASES = ['pending', 'thinking', 'acting', 'responding', 'done'] as const;
export const RunPhaseSchema = z.enum(RUN_PHASES);
export type RunPhase = z.infer<typeof RunPhaseSchema>;

/**
 * `conversation`: a top-level turn; `subagent` and `tool`: children of one; `session`: an agent
 * session another program wrote through the workbench's SessionStorage.
 *
 * @example
 * RUN_KINDS.includes('subagent'); // true
 */
export const RUN_KINDS = ['conversation', 'subagent', 'tool', 'session'] as const;
export const RunKindSchema = z.enum(RUN_KINDS);
export type RunKind = z.infer<typeof RunKindSchema>;

/**
 * Token, time and call counts of a run (spec §4.17).
 *
 * @example
 * `${usage.input_tokens} in · ${usage.output_tokens} out`;
 */
export const RunUsageSchema = z
  .object({
    input_tokens: z.number(),
    output_tokens: z.number(),
    tool_calls: z.number(),
    model_calls: z.number(),
    duration_ms: z.number(),
    /** Input tokens served from the provider's prompt cache (included in `input_tokens`). */
    cache_read_tokens: z.number().optional(),
    /** Input tokens written to the provider's prompt cache (included in `input_tokens`). */
    cache_write_tokens: z.number().optional(),
  })
  .meta({ id: 'RunUsage' });
export type RunUsage = z.infer<typeof RunUsageSchema>;

/**
 * Why the model's reply ended, as the provider said: `length` — cut off at the token limit;
 * `content_filter` — blocked by the provider's filter; `refusal` — the model declined (its text is
 * the refusal). A UI says so at the end of the answer.
 *
 * @example
 * if (message.finish_reason === 'length') showNotice('Cut off at the token limit');
 */
export const FinishReasonSchema = z
  .enum(['stop', 'tool_calls', 'length', 'content_filter', 'refusal', 'other'])
  .meta({ id: 'FinishReason' });
export type FinishReason = z.infer<typeof FinishReasonSchema>;

/** An ISO 8601 timestamp. */
export const IsoDateSchema = z.string().meta({ format: 'date-time' });

/**
 * A run as events and the conversation Query describe it.
 *
 * @example
 * run.previous_run_id; // the turn this one follows on its branch
 */
export const RunDescriptionSchema = z
  .object({
    id: z.string(),
    conversation_id: z.string(),
    parent_run_id: z.string().nullable(),
    previous_run_id: z.string().nullable(),
    user_message_id: z.string().nullable(),
    kind: RunKindSchema,
    status: RunStatusSchema,
    phase: RunPhaseSchema,
    model_id: z.string().nullable(),
    created_at: IsoDateSchema,
  })
  .meta({ id: 'RunDescription' });
export type RunDescription = z.infer<typeof RunDescriptionSchema>;

/**
 * A run as the API answers it: the description plus its project, outcome and times.
 *
 * @example
 * const { run } = await client.sendMessage(conversationId, { text: 'Hi' });
 */
export const RunSchema = RunDescriptionSchema.extend({
  project_id: z.string().nullable(),
  /** The agent profile the run was executed with. */
  profile_id: z.string().nullable(),
  error: z.unknown(),
  usage: z.unknown(),
  started_at: IsoDateSchema.nullable(),
  ended_at: IsoDateSchema.nullable(),
}).meta({ id: 'Run' });
export type Run = z.infer<typeof RunSchema>;
