import { z } from 'zod';
import { ProfileContextAssemblySchema } from '../context/index.ts';
import { ModelKindSchema, RunBudgetSchema, RunParametersSchema } from '../settings/index.ts';

/** The built-in profile's id: the T0 baseline every conversation falls back to. */
export const DEFAULT_PROFILE_ID = 'default';

/** A tool-name pattern: `*` any run of characters, `?` one (`http.*`, `read_*`, `*`). */
export const ToolPatternSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\w.*?:/-]+$/, 'a tool name pattern: letters, digits, _ . - : / and the wildcards * ?');

/**
 * Which tools a profile's runs may use (spec §4.7/§4.8): a tool is visible to the model when it
 * matches `allow` and not `deny`; a visible tool matching `confirm` asks before it runs.
 */
export const ToolListsSchema = z.object({
  allow: z.array(ToolPatternSchema).max(200),
  deny: z.array(ToolPatternSchema).max(200),
  confirm: z.array(ToolPatternSchema).max(200),
});
export type ToolLists = z.infer<typeof ToolListsSchema>;

/** The model: a routing kind (`{ router: 'chat' }`) or an explicit `provider/model`. */
export const ProfileModelSchema = z.union([
  z.object({ router: ModelKindSchema.extract(['chat', 'lightweight']) }),
  z.object({ id: z.string().min(1).max(200) }),
]);
export type ProfileModel = z.infer<typeof ProfileModelSchema>;

/**
 * A profile's context policy: when the agent core compacts the history (`policy`), and — optional,
 * versioned — each slot's priority and share of the budget in the context assembly (`assembly`,
 * spec §4.10); absent, the default policy's slots.
 */
export const ContextPolicySchema = z.object({
  policy: z.enum(['default', 'compact-early', 'no-compaction']),
  assembly: ProfileContextAssemblySchema.optional(),
});

export const HitlPolicySchema = z.object({
  /** Ask the user when the request is ambiguous rather than guess. */
  askOnAmbiguity: z.boolean(),
  /** A question nobody answers ends after this long; null waits. */
  timeoutSec: z.number().int().positive().nullable(),
});

/** The fields a user writes; `id` and `builtin` are the server's. */
export const ProfileInputSchema = z.object({
  name: z.string().trim().min(1).max(80),
  description: z.string().max(500).optional(),
  /** Replaces the base instructions of the system prompt; empty keeps the global ones. */
  systemPrompt: z.string().max(100_000),
  model: ProfileModelSchema,
  parameters: RunParametersSchema,
  tools: ToolListsSchema,
  context: ContextPolicySchema,
  hitl: HitlPolicySchema,
  budget: RunBudgetSchema,
});
export type ProfileInput = z.infer<typeof ProfileInputSchema>;

/**
 * An agent profile (spec §4.7): the system prompt, model and parameters, tool lists, context and
 * HITL policy and budget of a conversation's runs — all data, importable and exportable as JSON.
 *
 * @example
 * const reviewer: AgentProfile = { id: '…', name: 'Reviewer', builtin: false, systemPrompt: 'Review code.',
 *   model: { router: 'chat' }, parameters: { temperature: 0.2 }, tools: { allow: ['*'], deny: ['write_*'], confirm: [] },
 *   context: { policy: 'default' }, hitl: { askOnAmbiguity: true, timeoutSec: null }, budget: { max_tool_calls: 40 },
 *   created_at: '…', updated_at: '…' };
 */
export const AgentProfileSchema = ProfileInputSchema.extend({
  id: z.string(),
  builtin: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AgentProfile = z.infer<typeof AgentProfileSchema>;

/** A partial edit of a profile. */
export const ProfilePatchSchema = ProfileInputSchema.partial();
export type ProfilePatch = z.infer<typeof ProfilePatchSchema>;

/** The JSON file `GET /api/profiles/:id/export` writes and `POST /api/profiles/import` reads. */
export const PROFILE_FILE_FORMAT = 'youyou.profile';
export const ProfileFileSchema = z.object({
  format: z.literal(PROFILE_FILE_FORMAT),
  version: z.literal(1),
  profiles: z.array(ProfileInputSchema).min(1).max(100),
});
export type ProfileFile = z.infer<typeof ProfileFileSchema>;

/** What a tool policy decides for one tool. */
export type ToolDecision = 'auto' | 'confirm' | 'deny';

/**
 * Whether `name` matches a glob pattern (`*` any run, `?` one character; case-sensitive).
 *
 * @example
 * toolPatternMatches('http.*', 'http.get'); // true
 */
export function toolPatternMatches(pattern: string, name: string): boolean {
  const expression = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${expression}$`).test(name);
}

/**
 * What the tool lists decide for a tool: `deny` when it is denied or not allowed (the model never
 * sees it), `confirm` when it matches `confirm`, else `auto`.
 *
 * @example
 * toolDecision({ allow: ['*'], deny: ['shell'], confirm: ['http.*'] }, 'http.get'); // 'confirm'
 */
export function toolDecision(lists: ToolLists, name: string): ToolDecision {
  const matches = (patterns: readonly string[]) =>
    patterns.some((pattern) => toolPatternMatches(pattern, name));
  if (!matches(lists.allow) || matches(lists.deny)) return 'deny';
  return matches(lists.confirm) ? 'confirm' : 'auto';
}
