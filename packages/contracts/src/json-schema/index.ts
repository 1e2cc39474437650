import { z } from 'zod';
import * as agents from '../agents/index.ts';
import * as api from '../api/index.ts';
import * as artifacts from '../artifacts/index.ts';
import * as commands from '../commands/index.ts';
import * as context from '../context/index.ts';
import * as memory from '../memory/index.ts';
import * as documents from '../documents/index.ts';
import * as errors from '../errors/index.ts';
import * as events from '../events/index.ts';
import * as extensions from '../extensions/index.ts';
import * as mcp from '../mcp/index.ts';
import * as messages from '../messages/index.ts';
import * as profiles from '../profiles/index.ts';
import * as runs from '../runs/index.ts';
import * as settings from '../settings/index.ts';
import * as uiSchema from '../ui-schema/index.ts';

/** A JSON Schema document (draft 2020-12). */
export type JsonSchema = Record<string, unknown>;

const CONCEPTS = [
  errors,
  runs,
  messages,
  events,
  api,
  artifacts,
  agents,
  settings,
  profiles,
  commands,
  mcp,
  uiSchema,
  extensions,
  context,
  memory,
  documents,
];

/** Every exported `…Schema` of the concept folders, by name without the suffix. */
function contractSchemas(): Map<string, z.ZodType> {
  const found = new Map<string, z.ZodType>();
  for (const concept of CONCEPTS) {
    for (const [name, value] of Object.entries(concept)) {
      if (name.endsWith('Schema') && value instanceof z.ZodType)
        found.set(name.slice(0, -'Schema'.length), value);
    }
  }
  return found;
}

let cached: Readonly<Record<string, JsonSchema>> | undefined;

/**
 * The contract as JSON Schema (draft 2020-12), generated from its zod schemas, for consumers in
 * other languages: one self-contained document per schema (`Event`, `WorkbenchEvent`, `Message`,
 * `ConversationView`, `SendMessage`, …), named as in TypeScript without the `Schema` suffix.
 * Request bodies are described as the server accepts them (`io: 'input'`), everything else as it
 * is sent. Computed on first call.
 *
 * @example
 * import Ajv from 'ajv/dist/2020.js';
 * const validate = new Ajv().compile(jsonSchemas()['WorkbenchEvent']);
 * validate(JSON.parse(message.data)); // true for an event this contract knows
 */
export function jsonSchemas(): Readonly<Record<string, JsonSchema>> {
  if (cached !== undefined) return cached;
  const output: Record<string, JsonSchema> = {};
  for (const [name, schema] of contractSchemas()) {
    output[name] = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      // A shape JSON Schema cannot say (a function, a transform) becomes "anything", never a throw.
      unrepresentable: 'any',
      io: name.endsWith('Create') || name.endsWith('Update') || name === 'SendMessage' ? 'input' : 'output',
    }) as JsonSchema;
  }
  cached = output;
  return cached;
}
