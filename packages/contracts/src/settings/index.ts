import { z } from 'zod';

/**
 * When a change to a setting takes effect (spec §4.9): `hot` at once (pushed to every tab as
 * `settings.changed`), `new-run` from the next run on (a running run keeps what it started with),
 * `restart` when the server starts again (listed by `youyou doctor`).
 */
export const SettingEffectSchema = z.enum(['hot', 'new-run', 'restart']);
export type SettingEffect = z.infer<typeof SettingEffectSchema>;

/** The layers, lowest first: each one overrides the one before (spec §4.9). */
export const SETTING_LAYERS = ['system', 'user', 'project', 'conversation'] as const;
export const SettingLayerSchema = z.enum(SETTING_LAYERS);
export type SettingLayer = z.infer<typeof SettingLayerSchema>;

/** The layers a value can be written at (`system` is the schema's default). */
export const WritableSettingLayerSchema = z.enum(['user', 'project', 'conversation']);
export type WritableSettingLayer = z.infer<typeof WritableSettingLayerSchema>;

/** Who declared a setting (spec §4.1 rule 4: every registry marks its sources). */
export const SettingSourceSchema = z.enum(['builtin', 'extension', 'profile']);
export type SettingSource = z.infer<typeof SettingSourceSchema>;

/**
 * How an array value of a higher layer meets the one below: `replace` (the default; arrays are
 * never concatenated implicitly), `append` (lower items first, then the higher layer's) or `union`
 * (`append` without duplicates).
 */
export const ArrayMergeSchema = z.enum(['replace', 'append', 'union']);
export type ArrayMerge = z.infer<typeof ArrayMergeSchema>;

/** Text in each language the UI speaks. */
export const LocalizedTextSchema = z.object({ en: z.string().min(1), 'zh-CN': z.string().min(1) });
export type LocalizedText = z.infer<typeof LocalizedTextSchema>;

export type JsonSchemaNode = {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
  default?: unknown | undefined;
  enum?: unknown[] | undefined;
  minimum?: number | undefined;
  maximum?: number | undefined;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  pattern?: string | undefined;
  format?: string | undefined;
  nullable?: boolean | undefined;
  items?: JsonSchemaNode | undefined;
  properties?: Record<string, JsonSchemaNode> | undefined;
  additionalProperties?: boolean | JsonSchemaNode | undefined;
  required?: string[] | undefined;
  maxItems?: number | undefined;
};

/**
 * The JSON Schema subset a setting's value is described with: the UI renders each `type` (text,
 * number with its range, switch, select for `enum`, list, JSON for objects); the server validates
 * every write against it. `nullable` lets a value be cleared to "not set". `format: 'model'` asks
 * the UI for a model picker; `format: 'multiline'` for a text area.
 */
export const SettingValueSchemaSchema: z.ZodType<JsonSchemaNode> = z.lazy(() =>
  z.object({
    type: z.enum(['string', 'number', 'integer', 'boolean', 'array', 'object']),
    default: z.unknown().optional(),
    enum: z.array(z.unknown()).min(1).optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    minLength: z.number().int().nonnegative().optional(),
    maxLength: z.number().int().positive().optional(),
    pattern: z.string().optional(),
    format: z.string().optional(),
    nullable: z.boolean().optional(),
    items: SettingValueSchemaSchema.optional(),
    properties: z.record(z.string(), SettingValueSchemaSchema).optional(),
    additionalProperties: z.union([z.boolean(), SettingValueSchemaSchema]).optional(),
    required: z.array(z.string()).optional(),
    maxItems: z.number().int().positive().optional(),
  }),
);
export type SettingValueSchema = JsonSchemaNode;

/** A setting key: dotted lowercase words (`run.temperature`, `example.greeting`). */
export const SETTING_KEY_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/;

/**
 * One entry of the settings schema (spec §4.9): what it is, its type and default, when a change
 * takes effect, how the UI labels it, where it may be set, and who declared it.
 *
 * @example
 * const temperature: SettingDefinition = {
 *   key: 'run.temperature', section: 'run', source: 'builtin', effect: 'new-run',
 *   schema: { type: 'number', minimum: 0, maximum: 2, nullable: true, default: null },
 *   label: { en: 'Temperature', 'zh-CN': '温度' }, help: { en: '…', 'zh-CN': '…' },
 *   secret: false, layers: ['user', 'project', 'conversation'],
 * };
 */
export const SettingDefinitionSchema = z.object({
  key: z.string().regex(SETTING_KEY_PATTERN).max(120),
  /** The settings-page section it appears in (`run`, `models`, `titles`, an extension's id …). */
  section: z
    .string()
    .regex(/^[a-z][a-z0-9_-]*$/)
    .max(60),
  schema: SettingValueSchemaSchema,
  effect: SettingEffectSchema,
  label: LocalizedTextSchema,
  help: LocalizedTextSchema,
  /** Stored apart, write-only: never returned, never exported, masked in the UI. */
  secret: z.boolean(),
  /** Where a value may be written; at least one. */
  layers: z.array(WritableSettingLayerSchema).min(1),
  source: SettingSourceSchema,
  /** Who, within the source: an extension's or profile's id. */
  source_id: z.string().optional(),
  array_merge: ArrayMergeSchema.optional(),
  /** Lower first within a section. */
  order: z.number().optional(),
});
export type SettingDefinition = z.infer<typeof SettingDefinitionSchema>;

/** The name of a custom widget of the UI-schema renderer (`providers`, `mcp`, …). */
export const SETTINGS_WIDGET_PATTERN = /^[a-z][a-z0-9_-]*$/;

/**
 * A section of the settings centre (spec §4.9). A section without `page` is a page of its own (an
 * entry of the settings navigation, in `order`); one with `page` is drawn inside that page, under
 * its own heading. `widget` names a custom widget of the UI-schema renderer that the page draws
 * before its settings (the list of providers, of MCP servers …); everything else on a page — its
 * title, its order, its settings — comes from the schema, so a section or a setting registered on
 * the server (by the server itself or an extension) appears with no front-end code.
 *
 * @example
 * const mcp: SettingsSection = { id: 'mcp', label: { en: 'MCP servers', 'zh-CN': 'MCP 服务器' }, order: 70, widget: 'mcp' };
 * const run: SettingsSection = { id: 'run', label: { en: 'Run parameters', 'zh-CN': '运行参数' }, order: 20, page: 'preferences' };
 */
export const SettingsSectionSchema = z.object({
  id: z
    .string()
    .regex(/^[a-z][a-z0-9_-]*$/)
    .max(60),
  label: LocalizedTextSchema,
  order: z.number(),
  /** The page this section is drawn in; absent: the section is a page. */
  page: z
    .string()
    .regex(/^[a-z][a-z0-9_-]*$/)
    .max(60)
    .optional(),
  /** A custom widget drawn before the section's settings. */
  widget: z.string().regex(SETTINGS_WIDGET_PATTERN).max(60).optional(),
});
export type SettingsSection = z.infer<typeof SettingsSectionSchema>;

/** `GET /api/settings/schema`. */
export const SettingsSchemaResponseSchema = z.object({
  sections: z.array(SettingsSectionSchema),
  settings: z.array(SettingDefinitionSchema),
});
export type SettingsSchemaResponse = z.infer<typeof SettingsSchemaResponseSchema>;

/** Where to read or write: a layer and, for `project` and `conversation`, which one. */
export const SettingScopeSchema = z.object({
  layer: WritableSettingLayerSchema,
  /** The project's or conversation's id; absent for `user`. */
  scope_id: z.string().min(1).optional(),
});
export type SettingScope = z.infer<typeof SettingScopeSchema>;

/**
 * The value a key has for a scope, and which layer gave it. A secret's value is never here:
 * `has_value` says whether one is stored.
 */
export const EffectiveSettingSchema = z.object({
  key: z.string(),
  value: z.unknown().optional(),
  layer: SettingLayerSchema,
  /** Layers that hold a value for this key (the effective one included), lowest first. */
  set_at: z.array(WritableSettingLayerSchema),
  secret: z.boolean(),
  has_value: z.boolean(),
  effect: SettingEffectSchema,
  /** `restart` settings whose stored value differs from the one this server started with. */
  pending_restart: z.boolean().optional(),
});
export type EffectiveSetting = z.infer<typeof EffectiveSettingSchema>;

/** `GET /api/settings/effective?project_id&conversation_id`. */
export const EffectiveSettingsResponseSchema = z.object({
  project_id: z.string().nullable(),
  conversation_id: z.string().nullable(),
  settings: z.array(EffectiveSettingSchema),
});
export type EffectiveSettingsResponse = z.infer<typeof EffectiveSettingsResponseSchema>;

/** `PUT /api/settings/values`: values for several keys at one layer; all or nothing. */
export const SettingsWriteSchema = SettingScopeSchema.extend({
  values: z.record(z.string(), z.unknown()),
});
export type SettingsWrite = z.infer<typeof SettingsWriteSchema>;

/** What a write or reset did: the keys and when each takes effect. */
export const SettingsWriteResultSchema = z.object({
  changed: z.array(z.object({ key: z.string(), effect: SettingEffectSchema })),
  settings: z.array(EffectiveSettingSchema),
});
export type SettingsWriteResult = z.infer<typeof SettingsWriteResultSchema>;

/**
 * The workbench event every tab receives when settings change (`GET /api/events`), so each one
 * re-reads them. Secret values never travel in it.
 */
export const SettingsChangedPayloadSchema = z.object({
  layer: WritableSettingLayerSchema,
  scope_id: z.string().nullable(),
  changes: z.array(z.object({ key: z.string(), effect: SettingEffectSchema, reset: z.boolean() })),
});
export type SettingsChangedPayload = z.infer<typeof SettingsChangedPayloadSchema>;

/** One event of the workbench-wide stream (`GET /api/events`); clients ignore types they do not know. */
export const WorkbenchStreamEventSchema = z.object({
  id: z.number().int(),
  ts: z.string(),
  v: z.number().int(),
  type: z.string(),
  payload: z.unknown(),
});
export type WorkbenchStreamEvent = z.infer<typeof WorkbenchStreamEventSchema>;

/** Model routing by purpose (spec §4.7). */
export const MODEL_KINDS = ['chat', 'lightweight', 'embedding', 'rerank'] as const;
export const ModelKindSchema = z.enum(MODEL_KINDS);
export type ModelKind = z.infer<typeof ModelKindSchema>;

/** Reasoning effort, as the agent takes it. */
export const ReasoningEffortSchema = z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);

/** Run parameters (spec §4.7), resolved system → profile → conversation. */
export const RunParametersSchema = z
  .object({
    temperature: z.number().min(0).max(2).nullable(),
    max_tokens: z.number().int().positive().nullable(),
    reasoning_effort: ReasoningEffortSchema.nullable(),
    /** A model stream that sends nothing for this long fails (retryable). */
    timeout_ms: z.number().int().min(1000).max(3_600_000).nullable(),
    /** How many times a failed model request is tried again before the run fails. */
    retry_budget: z.number().int().min(0).max(10).nullable(),
  })
  .partial();
export type RunParameters = z.infer<typeof RunParametersSchema>;

/** Per-run limits (spec §4.7); a run that passes one ends with its stable code. */
export const RunBudgetSchema = z
  .object({
    /** Input + output tokens of every model call of the run → BUDGET_TOKENS_EXCEEDED. */
    max_tokens: z.number().int().positive().nullable(),
    /** Wall time of the run → BUDGET_TIME_EXCEEDED. */
    max_duration_ms: z.number().int().min(1000).nullable(),
    /** Tool calls of the run → BUDGET_TOOL_CALLS_EXCEEDED. */
    max_tool_calls: z.number().int().min(0).nullable(),
  })
  .partial();
export type RunBudget = z.infer<typeof RunBudgetSchema>;

/** The codes a budget ends a run with. */
export const BUDGET_ERROR_CODES = [
  'BUDGET_TOKENS_EXCEEDED',
  'BUDGET_TIME_EXCEEDED',
  'BUDGET_TOOL_CALLS_EXCEEDED',
] as const;
export type BudgetErrorCode = (typeof BUDGET_ERROR_CODES)[number];
