import { FrontMatterReader, describeValue } from './front-matter-reader.ts';
import type { EntryReadResult } from './front-matter-reader.ts';
import type { FrontMatterDocument } from './front-matter.ts';
import { readParameters } from './parameters-schema.ts';
import { readScriptCommand } from './script-command.ts';
import type { ScriptCommand } from './script-command.ts';

/**
 * A tool as its `index.md` declares it (spec §5.3), before it is bound to a folder and a runner.
 *
 * @example
 * const definition: FileToolDefinition = {
 *   name: 'word_count',
 *   description: 'Counts words in a text.',
 *   mutating: false,
 *   parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
 *   execution: { command: './count.sh', args: [] },
 * };
 */
export interface FileToolDefinition {
  name: string;
  description: string;
  mutating: boolean;
  parameters: Readonly<Record<string, unknown>>;
  execution: ScriptCommand;
}

const TOOL_FIELDS: ReadonlySet<string> = new Set([
  'version',
  'name',
  'mutating',
  'parameters',
  'execution',
  'description',
]);

/**
 * Reads a tool `index.md`. `name` must equal the folder name; the body is the description (a
 * front matter `description` is used only when the body is empty).
 *
 * @example
 * const parsed = parseFrontMatter(text);
 * if (parsed.ok) readToolEntry(parsed.value, 'word_count');
 */
export function readToolEntry(
  document: FrontMatterDocument,
  folderName: string,
): EntryReadResult<FileToolDefinition> {
  const reader = new FrontMatterReader(document);
  reader.version();
  reader.warnUnknownKeys([], TOOL_FIELDS);
  const name = readMatchingName(reader, 'name', folderName);
  const mutating = reader.boolean(['mutating'], false);
  const parameters = readParameters(reader);
  const execution = readScriptCommand(reader, ['execution'], { required: true });
  const fallback = reader.string(['description']);
  const description = document.body.trim() !== '' ? document.body.trim() : fallback?.trim();
  if (description === undefined || description === '') {
    reader.fail([], 'the tool has no description: write it as the Markdown body after the front matter');
  }
  if (
    name === undefined ||
    parameters === undefined ||
    execution === undefined ||
    description === undefined
  ) {
    return reader.failure();
  }
  return reader.result({ name, description, mutating, parameters, execution });
}

/** Reads `name`/`id` and checks it equals the folder name (spec §5.3–§5.5). */
export function readMatchingName(
  reader: FrontMatterReader,
  field: 'name' | 'id',
  folderName: string,
): string | undefined {
  const value = reader.value([field]);
  if (value === undefined || value === null)
    return reader.fail(
      [field],
      `field \`${field}\` is missing (it must be ${JSON.stringify(folderName)}, the folder name)`,
    );
  if (value !== folderName) {
    return reader.fail(
      [field],
      `field \`${field}\` is ${describeValue(value)} but the folder is named ${JSON.stringify(folderName)}; they must be equal`,
    );
  }
  return folderName;
}
