import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { AgentError } from '../errors/index.ts';
import type { ToolContext, ToolHandler, ToolOutput } from './tool-handler.ts';

/** A JSON Schema object describing a tool's arguments (`{ type: 'object', properties: … }`). */
export type JsonSchemaObject = Readonly<Record<string, unknown>>;

/** A Standard Schema whose output is an arguments object: zod, valibot, arktype and others. */
export type ArgumentsSchema = StandardSchemaV1<unknown, Record<string, unknown>>;

/** What a tool's `execute` gets besides its arguments: the call's ids and the dispatch context. */
export interface ToolCallContext extends ToolContext {
  callId: string;
  toolName: string;
}

interface ToolDefinitionBase {
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /** True when the tool has side effects; one mutating call makes its whole batch serial. */
  mutating: boolean;
  /** Overrides `toolTimeoutMs` for this tool. */
  timeoutMs?: number;
}

/** A tool whose arguments a schema library describes; `execute` gets its parsed output. */
export interface SchemaToolDefinition<Schema extends ArgumentsSchema> extends ToolDefinitionBase {
  parameters: Schema;
  /**
   * The JSON Schema the model sees. Derived from the schema when its library offers
   * `~standard.jsonSchema` (zod ≥ 4.2, arktype); pass it for a library that does not.
   */
  jsonSchema?: JsonSchemaObject;
  execute(
    args: StandardSchemaV1.InferOutput<Schema>,
    context: ToolCallContext,
  ): ToolOutput | string | Promise<ToolOutput | string>;
}

/** A tool described by a plain JSON Schema, checked by the dispatcher's validator. */
export interface JsonSchemaToolDefinition extends ToolDefinitionBase {
  parameters: JsonSchemaObject;
  execute(
    args: Readonly<Record<string, unknown>>,
    context: ToolCallContext,
  ): ToolOutput | string | Promise<ToolOutput | string>;
}

/**
 * Defines a tool from a Standard Schema (zod, valibot, arktype) or a JSON Schema (spec §3.3). With a
 * schema library, `execute`'s arguments are inferred from the schema, the arguments are checked by
 * the library (its transforms and defaults apply), and the JSON Schema sent to the model is derived
 * from it. `execute` may return the content as a string.
 *
 * @example
 * import { z } from 'zod';
 * const weather = defineTool({
 *   name: 'get_weather',
 *   description: 'The current weather in a city.',
 *   mutating: false,
 *   parameters: z.object({ city: z.string(), unit: z.enum(['c', 'f']).default('c') }),
 *   execute: ({ city, unit }) => `It is 21°${unit.toUpperCase()} in ${city}.`,
 * });
 */
export function defineTool<Schema extends ArgumentsSchema>(
  definition: SchemaToolDefinition<Schema>,
): ToolHandler;
export function defineTool(definition: JsonSchemaToolDefinition): ToolHandler;
export function defineTool(
  definition: SchemaToolDefinition<ArgumentsSchema> | JsonSchemaToolDefinition,
): ToolHandler {
  const { name, description, mutating, timeoutMs } = definition;
  const run = definition.execute as (
    args: Readonly<Record<string, unknown>>,
    context: ToolCallContext,
  ) => ToolOutput | string | Promise<ToolOutput | string>;
  const base = {
    name,
    description,
    mutating,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    async execute(
      input: { callId: string; toolName: string; arguments: Readonly<Record<string, unknown>> },
      context: ToolContext,
    ): Promise<ToolOutput> {
      const output = await run(input.arguments, {
        ...context,
        callId: input.callId,
        toolName: input.toolName,
      });
      return typeof output === 'string' ? { content: output } : output;
    },
  };
  const parameters = definition.parameters;
  if (!isStandardSchema(parameters)) return { ...base, parameters };
  const jsonSchema = 'jsonSchema' in definition ? definition.jsonSchema : undefined;
  return { ...base, parameters: jsonSchema ?? deriveJsonSchema(name, parameters), schema: parameters };
}

export function isStandardSchema(value: unknown): value is ArgumentsSchema {
  if (typeof value !== 'object' && typeof value !== 'function') return false;
  const props = (value as { '~standard'?: unknown } | null)?.['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

/** The schema's input as JSON Schema draft-07 (what ajv and the providers' tool formats expect). */
function deriveJsonSchema(toolName: string, schema: ArgumentsSchema): JsonSchemaObject {
  const converter = (schema['~standard'] as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
  const vendor = schema['~standard'].vendor;
  if (converter === undefined) {
    throw new AgentError(
      'INVALID_INPUT',
      `Tool '${toolName}': its ${vendor} schema cannot convert itself to JSON Schema; pass \`jsonSchema\` to defineTool (e.g. from the library's own converter).`,
      { source: 'tool', details: { toolName, vendor } },
    );
  }
  let converted: Record<string, unknown>;
  try {
    converted = converter.input({ target: 'draft-07' });
  } catch (error) {
    throw new AgentError(
      'INVALID_INPUT',
      `Tool '${toolName}': its ${vendor} schema could not be converted to JSON Schema: ${String(error)}. Pass \`jsonSchema\` to defineTool.`,
      { source: 'tool', cause: error, details: { toolName, vendor } },
    );
  }
  // The model needs the shape, not the dialect marker.
  const { $schema: _dialect, ...rest } = converted;
  if (rest['type'] !== 'object') {
    throw new AgentError(
      'INVALID_INPUT',
      `Tool '${toolName}': the arguments must be an object schema; got ${JSON.stringify(rest['type'])}.`,
      { source: 'tool', details: { toolName } },
    );
  }
  return rest;
}
