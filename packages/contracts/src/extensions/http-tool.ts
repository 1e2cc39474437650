import { z } from 'zod';

/** A tool name the model sees: lowercase words joined by `_` (like the built-in tools). */
export const EXTENSION_TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]{1,63}$/;

/**
 * `{{name}}` fills in an argument; `{{setting:key}}` an extension setting; `{{secret:key}}` a
 * secret setting (only in headers, read from the settings store at call time, never written to
 * events or logs).
 */
export const TEMPLATE_REFERENCE = /\{\{\s*(?:(setting|secret):)?([A-Za-z_][\w.-]*)\s*\}\}/g;

/** Bounds of a declarative tool's request and response. */
export const HTTP_TOOL_LIMITS = {
  /** Default and upper bound of `timeout_ms`. */
  defaultTimeoutMs: 15_000,
  maxTimeoutMs: 120_000,
  /** Default and upper bound of `response.max_bytes` (what reaches the model). */
  defaultResponseBytes: 16_384,
  maxResponseBytes: 1_048_576,
  /** Redirects followed, each one checked against the allowed domains. */
  maxRedirects: 5,
} as const;

/**
 * The JSON Schema of a declarative tool's arguments: an object whose properties the templates name.
 * Checked again at load time (it must compile).
 */
export const ToolParametersSchema = z
  .object({
    type: z.literal('object'),
    properties: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
    required: z.array(z.string()).optional(),
    additionalProperties: z.boolean().optional(),
  })
  .loose();
export type ToolParameters = z.infer<typeof ToolParametersSchema>;

/** A JSON value whose strings may hold `{{…}}` references (the body template). */
export type JsonTemplate =
  string | number | boolean | null | JsonTemplate[] | { [key: string]: JsonTemplate };
export const JsonTemplateSchema: z.ZodType<JsonTemplate> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(JsonTemplateSchema),
    z.record(z.string(), JsonTemplateSchema),
  ]),
);

/**
 * A declarative HTTP tool (spec §4.8), `tools/*.json` of an extension: registered as an ordinary
 * workbench tool (enable switch, confirmation policy, audit). A string argument that is the whole
 * of a body value keeps its JSON type (`"{{count}}"` → `3`); inside a longer string it is text.
 * The URL's host must be one of the extension's `requires.network.domains`.
 *
 * @example
 * const weather: DeclarativeHttpTool = {
 *   name: 'example_weather', description: 'Current weather of a city',
 *   parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 *   request: { method: 'GET', url: 'https://api.example.com/weather?city={{city}}',
 *     headers: { authorization: 'Bearer {{secret:api_key}}' } },
 *   response: { select: '$.current', max_bytes: 4096 }, timeout_ms: 5000, mutating: false,
 * };
 */
export const DeclarativeHttpToolSchema = z
  .object({
    $schema: z.string().optional(),
    name: z.string().regex(EXTENSION_TOOL_NAME_PATTERN, 'a tool name: lowercase letters, digits and _'),
    description: z.string().min(1).max(2000),
    parameters: ToolParametersSchema,
    request: z
      .object({
        method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
        /** An absolute http(s) URL; `{{name}}` in it is filled in URL-encoded. */
        url: z.string().min(1).max(4000),
        headers: z.record(z.string(), z.string().max(4000)).default({}),
        /** Query parameters added to the URL (each value a template; empty results are left out). */
        query: z.record(z.string(), z.string()).default({}),
        /** A JSON body (sent as `application/json`); not for GET. */
        body: JsonTemplateSchema.optional(),
      })
      .strict(),
    response: z
      .object({
        /** A JSONPath-style selection of what to return: `$.a.b`, `$.items[0]`, `$.items[*].name`. */
        select: z.string().max(500).optional(),
        max_bytes: z
          .number()
          .int()
          .min(256)
          .max(HTTP_TOOL_LIMITS.maxResponseBytes)
          .default(HTTP_TOOL_LIMITS.defaultResponseBytes),
      })
      .strict()
      .default({ max_bytes: HTTP_TOOL_LIMITS.defaultResponseBytes }),
    timeout_ms: z
      .number()
      .int()
      .min(100)
      .max(HTTP_TOOL_LIMITS.maxTimeoutMs)
      .default(HTTP_TOOL_LIMITS.defaultTimeoutMs),
    /** True when a call changes something remote (the confirmation default becomes `confirm`). */
    mutating: z.boolean().default(false),
  })
  .strict();
export type DeclarativeHttpTool = z.infer<typeof DeclarativeHttpToolSchema>;
export type DeclarativeHttpToolInput = z.input<typeof DeclarativeHttpToolSchema>;
