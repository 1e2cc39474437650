import { z } from 'zod';
import { DeclarativeHttpToolSchema } from './http-tool.ts';
import { IntentSchema } from './intent.ts';
import { ExtensionCommandSchema, ExtensionManifestSchema, UiAssetSchema } from './manifest.ts';
import { ExtensionParserSchema } from './parser.ts';
import { WorkflowSchema } from './workflow.ts';

/**
 * The files an extension author validates against, by the name of the schema file published in
 * `@youyou/contracts/schemas/` (point `$schema` at it, or run any JSON Schema validator).
 */
export const EXTENSION_AUTHOR_SCHEMAS = {
  'extension.schema.json': ExtensionManifestSchema,
  'http-tool.schema.json': DeclarativeHttpToolSchema,
  'workflow.schema.json': WorkflowSchema,
  'intent.schema.json': IntentSchema,
  'command.schema.json': ExtensionCommandSchema,
  'ui-asset.schema.json': UiAssetSchema,
  'parser.schema.json': ExtensionParserSchema,
} as const satisfies Record<string, z.ZodType>;

/**
 * The author-facing JSON Schemas (draft 2020-12), generated from the zod schemas: what a file may
 * contain as written (defaults optional). The published files must equal these (a test checks).
 *
 * @example
 * const schemas = extensionAuthorSchemas();
 * schemas['extension.schema.json'].title; // 'YouYou extension manifest'
 */
export function extensionAuthorSchemas(): Record<
  keyof typeof EXTENSION_AUTHOR_SCHEMAS,
  Record<string, unknown>
> {
  const titles: Record<keyof typeof EXTENSION_AUTHOR_SCHEMAS, string> = {
    'extension.schema.json': 'YouYou extension manifest',
    'http-tool.schema.json': 'YouYou declarative HTTP tool',
    'workflow.schema.json': 'YouYou extension workflow',
    'intent.schema.json': 'YouYou extension intent',
    'command.schema.json': 'YouYou extension command',
    'ui-asset.schema.json': 'YouYou extension panel, card or form',
    'parser.schema.json': 'YouYou extension document parser',
  };
  const output = {} as Record<keyof typeof EXTENSION_AUTHOR_SCHEMAS, Record<string, unknown>>;
  for (const [file, schema] of Object.entries(EXTENSION_AUTHOR_SCHEMAS) as [
    keyof typeof EXTENSION_AUTHOR_SCHEMAS,
    z.ZodType,
  ][]) {
    const generated = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      unrepresentable: 'any',
      io: 'input',
    });
    output[file] = { ...generated, $id: `https://youyou.dev/schemas/${file}`, title: titles[file] };
  }
  return output;
}
