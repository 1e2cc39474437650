import { z } from 'zod';

/**
 * Context assembly (spec agent-system-skeleton-design-r4 §4.10): the slots a model request is built
 * from, the policy that gives each a priority and a share of the budget, and the report every run
 * stores of what the model saw — tokens per slot, and what was trimmed or dropped and why.
 */

/**
 * The slots, in the order the model reads them: the profile's system prompt, memories, knowledge,
 * the history before this turn, the current turn (user message, attachments, `@` references), and
 * the tool calls and results of this turn.
 */
export const CONTEXT_SLOTS = [
  'system',
  'memory',
  'knowledge',
  'history',
  'current_turn',
  'tool_results',
] as const;
export const ContextSlotSchema = z.enum(CONTEXT_SLOTS);
export type ContextSlot = z.infer<typeof ContextSlotSchema>;

/**
 * One slot's rule: `priority` — lower is kept first when the budget is short (the system prompt
 * and the current turn are never dropped, only excerpted); `share` — the most of the budget the
 * slot may take (0–1), whatever room is left.
 */
export const ContextSlotPolicySchema = z.object({
  priority: z.number().int().min(0).max(100),
  share: z.number().min(0).max(1),
});
export type ContextSlotPolicy = z.infer<typeof ContextSlotPolicySchema>;

/**
 * The assembly policy (data, spec §4.10 "策略数据化"): the output reserve and each slot's rule.
 * `output_reserve_tokens` null: the model's max output when known, else a quarter of the window
 * capped at 8,192.
 */
export const ContextAssemblyPolicySchema = z.object({
  output_reserve_tokens: z.number().int().min(0).nullable(),
  /** Largest excerpt of one attachment or reference kept when it must shrink, in tokens. */
  attachment_excerpt_tokens: z.number().int().min(16),
  /** Largest single tool result kept in the current turn, in tokens (head and tail are kept). */
  tool_result_tokens: z.number().int().min(16),
  slots: z.record(ContextSlotSchema, ContextSlotPolicySchema),
});
export type ContextAssemblyPolicy = z.infer<typeof ContextAssemblyPolicySchema>;

/**
 * The default policy (decision 0015): the system prompt and the current turn are kept first, then
 * this turn's tool results, memory (≤ 5 %), knowledge (≤ 20 %); the history before this turn is
 * trimmed first (its oldest exchanges), as it is the largest part and stays stored in full.
 *
 * @example
 * DEFAULT_CONTEXT_ASSEMBLY_POLICY.slots.memory; // { priority: 3, share: 0.05 }
 */
export const DEFAULT_CONTEXT_ASSEMBLY_POLICY: ContextAssemblyPolicy = {
  output_reserve_tokens: null,
  attachment_excerpt_tokens: 2_000,
  tool_result_tokens: 8_000,
  slots: {
    system: { priority: 0, share: 1 },
    current_turn: { priority: 1, share: 1 },
    tool_results: { priority: 2, share: 1 },
    memory: { priority: 3, share: 0.05 },
    knowledge: { priority: 4, share: 0.2 },
    history: { priority: 5, share: 1 },
  },
};

/** What happened to a part of a slot: cut to an excerpt, or left out whole. */
export const ContextTrimKindSchema = z.enum(['excerpted', 'dropped']);
export type ContextTrimKind = z.infer<typeof ContextTrimKindSchema>;

/**
 * Why: `budget` — the request did not fit the window minus the reserve; `share` — the slot passed
 * its share; `item_limit` — one item passed its own cap (attachment excerpt, tool result cap);
 * `disabled` — the feature is off (memory switched off, no retriever).
 */
export const ContextTrimReasonSchema = z.enum(['budget', 'share', 'item_limit', 'disabled']);
export type ContextTrimReason = z.infer<typeof ContextTrimReasonSchema>;

/** One trim, as the report lists it. */
export const ContextTrimSchema = z.object({
  slot: ContextSlotSchema,
  kind: ContextTrimKindSchema,
  reason: ContextTrimReasonSchema,
  /**
   * What it was: "message 3 (user)", "attachment report.pdf", "memory m_12", "3 older messages",
   * "descriptions of 12 tools", "tool web_fetch".
   */
  item: z.string(),
  tokens_before: z.number().int().min(0),
  tokens_after: z.number().int().min(0),
  /** What the model was told instead, e.g. "use read_document doc_1". */
  note: z.string().optional(),
});
export type ContextTrim = z.infer<typeof ContextTrimSchema>;

/** One slot's figures in a report. */
export const ContextSlotReportSchema = z.object({
  slot: ContextSlotSchema,
  priority: z.number().int(),
  /** The slot's cap in tokens (its share of the budget). */
  cap_tokens: z.number().int().min(0),
  /** Estimated tokens before trimming. */
  requested_tokens: z.number().int().min(0),
  /** Estimated tokens the model got. */
  tokens: z.number().int().min(0),
  /** Items the slot holds after trimming (messages, memories, passages …). */
  items: z.number().int().min(0),
});
export type ContextSlotReport = z.infer<typeof ContextSlotReportSchema>;

/** How tokens were counted: characters / 4, images at a fixed count (decision 0015). */
export const CONTEXT_TOKEN_ESTIMATOR = 'chars/4';

/** What the model saw in one model call of a run (spec §4.10, §4.17 "上下文组装观测"). */
export const ContextAssemblyReportSchema = z.object({
  version: z.literal(1),
  /** 0 for the run's first model call, then 1, 2 … (each tool round is a call). */
  call_index: z.number().int().min(0),
  model_id: z.string(),
  context_window: z.number().int().min(0),
  output_reserve_tokens: z.number().int().min(0),
  /** context_window − output_reserve_tokens. */
  budget_tokens: z.number().int().min(0),
  /** Estimated tokens of what was sent; the system slot holds the prompt and the tool definitions. */
  total_tokens: z.number().int().min(0),
  /** The tool definitions' part of the system slot, after trimming (descriptions cut, tools dropped). */
  tools_tokens: z.number().int().min(0),
  estimator: z.string(),
  slots: z.array(ContextSlotReportSchema),
  trims: z.array(ContextTrimSchema),
  /**
   * True when even the kept slots pass the budget: the request is not sent and the run fails with
   * CONTEXT_BUDGET_EXCEEDED.
   */
  over_budget: z.boolean(),
  /** Slots switched off or without a source for this call (memory off, no knowledge index). */
  off: z.array(ContextSlotSchema).optional(),
  /** Milliseconds the assembly took. */
  duration_ms: z.number().min(0),
  created_at: z.string(),
});
export type ContextAssemblyReport = z.infer<typeof ContextAssemblyReportSchema>;

/** `GET /api/runs/:id/context`: the reports of a run's model calls, in call order. */
export const RunContextReportsSchema = z.object({
  run_id: z.string(),
  reports: z.array(ContextAssemblyReportSchema),
});
export type RunContextReports = z.infer<typeof RunContextReportsSchema>;

/**
 * The codes of context-policy errors: `CONTEXT_SHARES_INVALID` — a profile's slot shares are out
 * of 0–1 or add up to more than the whole budget.
 */
export const CONTEXT_ERROR_CODES = ['CONTEXT_SHARES_INVALID'] as const;
export type ContextErrorCode = (typeof CONTEXT_ERROR_CODES)[number];

/** The version of a profile's slot settings; a later version only adds fields. */
export const PROFILE_CONTEXT_SLOTS_VERSION = 1;

/**
 * One slot as a profile sets it: its priority (a higher number is trimmed first when the request
 * does not fit) and its share of the budget — null: no share of its own, the slot takes what the
 * others leave (the history, the current turn, tool results by default).
 */
export const ProfileSlotSettingSchema = z.object({
  priority: z.number().int().min(0).max(100),
  share: z.number().nullable(),
});
export type ProfileSlotSetting = z.infer<typeof ProfileSlotSettingSchema>;

/** The slots a profile may set; the system prompt is always kept whole, so it has no setting. */
export const PROFILE_CONTEXT_SLOTS = [
  'memory',
  'knowledge',
  'history',
  'current_turn',
  'tool_results',
] as const satisfies readonly ContextSlot[];
export type ProfileContextSlot = (typeof PROFILE_CONTEXT_SLOTS)[number];

/** One problem of a profile's slot settings, as `details.problems` of CONTEXT_SHARES_INVALID lists it. */
export interface ContextSharesProblem {
  /** "/slots/knowledge/share", relative to the profile's `context.assembly`. */
  path: string;
  message: string;
}

/**
 * What is wrong with a set of slot settings: each share must be within 0–1, and the shares given
 * must add up to at most 1 (the whole budget). Empty when they are fine.
 *
 * @example
 * contextSharesProblems({ knowledge: { priority: 4, share: 0.9 }, memory: { priority: 3, share: 0.3 } });
 * // [{ path: '/slots', message: 'the shares add up to 1.2, more than the whole budget (1)' }]
 */
export function contextSharesProblems(
  slots: Partial<Record<ProfileContextSlot, ProfileSlotSetting>>,
): ContextSharesProblem[] {
  const problems: ContextSharesProblem[] = [];
  let sum = 0;
  for (const slot of PROFILE_CONTEXT_SLOTS) {
    const share = slots[slot]?.share;
    if (share === null || share === undefined) continue;
    if (!Number.isFinite(share) || share < 0 || share > 1) {
      problems.push({ path: `/slots/${slot}/share`, message: `the ${slot} share must be between 0 and 1` });
    } else sum += share;
  }
  // Shares are fractions of the budget: 0.1 + 0.2 may not pass 1 by a rounding error.
  if (sum > 1 + 1e-9) {
    problems.push({
      path: '/slots',
      message: `the shares add up to ${Math.round(sum * 1000) / 1000}, more than the whole budget (1)`,
    });
  }
  return problems;
}

/**
 * A profile's context-assembly settings (spec §4.10 "画像可调"), versioned: per slot its priority
 * and share. A slot it leaves out keeps the default policy's rule. Shares outside 0–1 or adding up
 * to more than 1 are refused with CONTEXT_SHARES_INVALID (the issue's `params.code`).
 *
 * @example
 * const assembly: ProfileContextAssembly = { version: 1, slots: { knowledge: { priority: 4, share: 0.05 } } };
 */
export const ProfileContextAssemblySchema = z
  .object({
    version: z.literal(PROFILE_CONTEXT_SLOTS_VERSION),
    slots: z.partialRecord(z.enum(PROFILE_CONTEXT_SLOTS), ProfileSlotSettingSchema),
  })
  .superRefine((value, context) => {
    for (const problem of contextSharesProblems(value.slots)) {
      context.addIssue({
        code: 'custom',
        message: problem.message,
        path: problem.path.split('/').filter((part) => part !== ''),
        params: { code: 'CONTEXT_SHARES_INVALID' },
      });
    }
  });
export type ProfileContextAssembly = z.infer<typeof ProfileContextAssemblySchema>;

/**
 * The assembly policy a profile's runs use: the default policy with the profile's slot settings
 * laid over it (a null share is no cap: 1).
 *
 * @example
 * contextPolicyOf({ version: 1, slots: { knowledge: { priority: 4, share: 0.05 } } }).slots.knowledge;
 * // { priority: 4, share: 0.05 }
 */
export function contextPolicyOf(
  assembly: ProfileContextAssembly | undefined,
  base: ContextAssemblyPolicy = DEFAULT_CONTEXT_ASSEMBLY_POLICY,
): ContextAssemblyPolicy {
  if (assembly === undefined) return base;
  const slots = { ...base.slots };
  for (const slot of PROFILE_CONTEXT_SLOTS) {
    const setting = assembly.slots[slot];
    if (setting !== undefined) slots[slot] = { priority: setting.priority, share: setting.share ?? 1 };
  }
  return { ...base, slots };
}

/**
 * The slot settings a profile editor starts from: the default policy's, with a share of 1 shown
 * as no share (null).
 */
export function defaultProfileSlots(): Record<ProfileContextSlot, ProfileSlotSetting> {
  const slots = {} as Record<ProfileContextSlot, ProfileSlotSetting>;
  for (const slot of PROFILE_CONTEXT_SLOTS) {
    const rule = DEFAULT_CONTEXT_ASSEMBLY_POLICY.slots[slot] ?? { priority: 0, share: 1 };
    slots[slot] = { priority: rule.priority, share: rule.share >= 1 ? null : rule.share };
  }
  return slots;
}
