import type { ReasoningEffort, SessionConfigOverrides } from '@youyou/agent';
import {
  toolDecision,
  type AgentProfile,
  type ProfileContextAssembly,
  type RunBudget,
  type RunParameters,
  type ToolDecision,
  type ToolLists,
} from '@youyou/contracts';
import type { ModelRouting } from '../models/index.ts';
import type { ProfileService } from '../profiles/index.ts';
import type { SettingsService } from '../settings/index.ts';

/** Where a run parameter's value came from: a settings layer, or the conversation's profile. */
export type ParameterSource = 'system' | 'user' | 'project' | 'profile' | 'conversation';

/**
 * What one run is executed with, resolved when it is created and fixed for its life: a `new-run`
 * setting changed meanwhile applies to the next run, never to this one (spec §4.9).
 */
export interface RunPlan {
  profile: AgentProfile;
  /** Replaces the base instructions; undefined keeps the global ones. */
  systemPrompt: string | undefined;
  parameters: RunParameters;
  budget: RunBudget;
  tools: ToolLists;
  /** The context slots' priorities and shares: the conversation's `context.slots`, else the profile's. */
  contextAssembly: ProfileContextAssembly | undefined;
  /** Where each parameter and budget came from (`run.temperature` → 'profile' …). */
  sources: Record<string, ParameterSource>;
  /** The `models.chat` setting for this conversation. */
  chatModel: string | null;
}

const PARAMETER_NAMES = [
  'temperature',
  'max_tokens',
  'reasoning_effort',
  'timeout_ms',
  'retry_budget',
] as const;
const BUDGET_NAMES = ['max_tokens', 'max_duration_ms', 'max_tool_calls'] as const;

export interface RunPlanServices {
  settings: SettingsService;
  profiles: ProfileService;
  routing: ModelRouting;
}

/**
 * Resolves a conversation's run: its profile (the built-in one when it has none or its profile is
 * gone) and each parameter and budget through system → user → project → profile → conversation
 * (spec §4.7: system defaults, then the profile, then the conversation).
 *
 * @example
 * const plan = await planRun(services, conversation);
 * plan.parameters.temperature; plan.sources['run.temperature']; // 0.2, 'profile'
 */
export async function planRun(
  services: RunPlanServices,
  conversation: { id: string; profile_id: string | null },
): Promise<RunPlan> {
  const profile =
    (conversation.profile_id === null ? undefined : await services.profiles.find(conversation.profile_id)) ??
    (await services.profiles.get('default'));
  const snapshot = await services.settings.snapshot({ conversationId: conversation.id });
  const sources: Record<string, ParameterSource> = {};
  const layered = <Value>(key: string, fromProfile: Value | null | undefined): Value | null => {
    const resolved = snapshot.get(key) ?? { value: null, layer: 'system' as const, setAt: [] };
    if (resolved.layer !== 'conversation' && fromProfile !== null && fromProfile !== undefined) {
      sources[key] = 'profile';
      return fromProfile;
    }
    sources[key] = resolved.layer;
    return (resolved.value ?? null) as Value | null;
  };
  const parameters: Record<string, unknown> = {};
  for (const name of PARAMETER_NAMES) {
    parameters[name] = layered(`run.${name}`, profile.parameters[name]);
  }
  const budget: Record<string, unknown> = {};
  for (const name of BUDGET_NAMES) budget[name] = layered(`budget.${name}`, profile.budget[name]);
  const slots = layered<ProfileContextAssembly['slots']>('context.slots', profile.context.assembly?.slots);
  return {
    profile,
    systemPrompt: profile.systemPrompt.trim() === '' ? undefined : profile.systemPrompt,
    parameters: parameters as RunParameters,
    budget: budget as RunBudget,
    // `hitl.askOnAmbiguity: false` (decision 0036): the model is not offered ask_user at all, so
    // it proceeds on its own reading; confirmation cards of the tool policy still show.
    tools: profile.hitl.askOnAmbiguity
      ? profile.tools
      : { ...profile.tools, deny: [...profile.tools.deny, 'ask_user'] },
    contextAssembly: slots === null ? undefined : { version: profile.context.assembly?.version ?? 1, slots },
    sources,
    chatModel: (snapshot.get('models.chat')?.value as string | null | undefined) ?? null,
  };
}

/** The model a profile asks for: an explicit `provider/model`, or the model its router kind resolves to. */
export async function profileModel(
  services: RunPlanServices,
  profile: AgentProfile,
  conversationId: string,
): Promise<string | undefined> {
  if ('id' in profile.model) return profile.model.id;
  if (profile.model.router === 'chat') return undefined;
  return (await services.routing.resolve(profile.model.router, { conversationId }))?.modelId;
}

/** The agent settings a plan overrides for its session. */
export function sessionConfigOf(plan: RunPlan): SessionConfigOverrides {
  const { parameters, profile } = plan;
  const overrides: SessionConfigOverrides = {};
  // null means "not set": the model's default, whatever config.yaml says.
  overrides.temperature = parameters.temperature ?? undefined;
  overrides.maxTokens = parameters.max_tokens ?? undefined;
  overrides.reasoningEffort = (parameters.reasoning_effort ?? undefined) as ReasoningEffort | undefined;
  if (parameters.timeout_ms !== null && parameters.timeout_ms !== undefined) {
    overrides.providerChunkTimeoutMs = parameters.timeout_ms;
    overrides.providerFirstChunkTimeoutMs = parameters.timeout_ms;
  }
  if (profile.context.policy === 'compact-early') overrides.compactThreshold = 0.5;
  if (profile.context.policy === 'no-compaction') overrides.compactThreshold = 1;
  return overrides;
}

/**
 * The confirmation policy of a conversation's runs, for the HITL confirmation plugin: what the
 * profile's tool lists decide for a tool (`deny` tools are never shown to the model).
 *
 * @example
 * const policy = await toolPolicyOf(services, conversation);
 * if (policy.decide('http_get') === 'confirm') raiseConfirmCard();
 */
export async function toolPolicyOf(
  services: RunPlanServices,
  conversation: { id: string; profile_id: string | null },
): Promise<{ profileId: string; tools: ToolLists; decide(toolName: string): ToolDecision }> {
  const profile =
    (conversation.profile_id === null ? undefined : await services.profiles.find(conversation.profile_id)) ??
    (await services.profiles.get('default'));
  return { profileId: profile.id, tools: profile.tools, decide: (name) => toolDecision(profile.tools, name) };
}
