import type { SkillDefinition } from '../skills/index.ts';
import { FrontMatterReader, describeValue } from './front-matter-reader.ts';
import type { EntryReadResult } from './front-matter-reader.ts';
import type { FrontMatterDocument } from './front-matter.ts';
import { readMatchingName } from './tool-entry.ts';

const SKILL_FIELDS: ReadonlySet<string> = new Set([
  'version',
  'name',
  'display_name',
  'description',
  'required_tools',
  'allow_implicit_invocation',
]);

/** Agent Skills descriptions are at most this long; a body-derived one is cut to it. */
const MAX_DERIVED_DESCRIPTION = 1024;

/**
 * Reads a skill `index.md` (spec §5.4): `description` is required, the body is the prompt.
 *
 * @example
 * const parsed = parseFrontMatter(text);
 * if (parsed.ok) readSkillEntry(parsed.value, 'commit');
 */
export function readSkillEntry(
  document: FrontMatterDocument,
  folderName: string,
): EntryReadResult<SkillDefinition> {
  const reader = new FrontMatterReader(document);
  reader.version();
  reader.warnUnknownKeys([], SKILL_FIELDS);
  const name = readMatchingName(reader, 'name', folderName);
  const displayName = reader.string(['display_name'], { nonEmpty: true });
  const description = reader.string(['description'], { required: true });
  const requiredTools = reader.stringList(['required_tools']) ?? [];
  const allowImplicitInvocation = reader.boolean(['allow_implicit_invocation'], false);
  const prompt = readPrompt(reader);
  if (name === undefined || description === undefined || prompt === undefined) return reader.failure();
  return reader.result({
    name,
    displayName: displayName ?? name,
    description: description.trim(),
    prompt,
    requiredTools,
    allowImplicitInvocation,
  });
}

/**
 * Reads a `SKILL.md` in the Agent Skills format used by other agent tools, so such skills drop in
 * unchanged. Field mapping (see README-files.md):
 * - `name` → name (optional). One that differs from the folder name (plugin-shipped skills often
 *   carry a display-style name such as "PDF Processing") loads under the folder name with a
 *   warning, and becomes the display name unless `display_name` is set.
 * - `version` is the skill's own (e.g. `0.1.0`), not a format version: ignored.
 * - `description` → description (else the body's first paragraph)
 * - body → prompt
 * - `disable-model-invocation: true` → `allowImplicitInvocation: false` (default true: the format
 *   exists so models can see skill descriptions)
 * - YouYou's own `display_name`, `required_tools`, `allow_implicit_invocation` work too
 * - `license`, `compatibility`, `metadata`, `allowed-tools` and other tools' fields are ignored
 *   without a warning.
 *
 * @example
 * const parsed = parseFrontMatter('---\nname: pdf\ndescription: Work with PDFs.\n---\nUse pdftotext.');
 * if (parsed.ok) readAgentSkillEntry(parsed.value, 'pdf');
 */
export function readAgentSkillEntry(
  document: FrontMatterDocument,
  folderName: string,
): EntryReadResult<SkillDefinition> {
  const reader = new FrontMatterReader(document);
  const declaredName = readDeclaredName(reader, folderName);
  const name = folderName;
  const displayName = reader.string(['display_name'], { nonEmpty: true }) ?? declaredName;
  const declared = reader.string(['description']);
  const requiredTools = reader.stringList(['required_tools']) ?? [];
  const disableModelInvocation = reader.boolean(['disable-model-invocation'], false);
  const allowImplicitInvocation = reader.boolean(['allow_implicit_invocation'], !disableModelInvocation);
  const prompt = readPrompt(reader);
  const description =
    declared !== undefined && declared.trim() !== '' ? declared.trim() : firstParagraph(document.body);
  if (description === '')
    reader.fail(['description'], 'field `description` is missing and the body has no text to use instead');
  if (prompt === undefined) return reader.failure();
  return reader.result({
    name,
    displayName: displayName ?? name,
    description,
    prompt,
    requiredTools,
    allowImplicitInvocation,
  });
}

/**
 * The `name` of a `SKILL.md` when it differs from the folder name (it is then only shown, with a
 * warning); undefined when it is absent or equal. The folder name is what `/name` invokes.
 */
function readDeclaredName(reader: FrontMatterReader, folderName: string): string | undefined {
  const value = reader.value(['name']);
  if (value === undefined || value === null || value === folderName) return undefined;
  const text = typeof value === 'string' ? value.trim() : String(value);
  reader.warn(
    ['name'],
    `field \`name\` is ${describeValue(value)} but the folder is named ${JSON.stringify(folderName)}; the skill loads as ${JSON.stringify(folderName)}` +
      (text === '' ? '' : ` and shows ${JSON.stringify(text)} as its display name`),
  );
  return text === '' ? undefined : text;
}

function readPrompt(reader: FrontMatterReader): string | undefined {
  const prompt = reader.document.body.trim();
  if (prompt === '')
    return reader.fail([], 'the skill has no prompt: write it as the Markdown body after the front matter');
  return prompt;
}

function firstParagraph(body: string): string {
  const paragraph =
    body
      .split(/\n\s*\n/)
      .map((part) => part.replace(/^#+\s*/gm, '').trim())
      .find((part) => part !== '') ?? '';
  const single = paragraph.replace(/\s+/g, ' ');
  return single.length > MAX_DERIVED_DESCRIPTION
    ? `${single.slice(0, MAX_DERIVED_DESCRIPTION - 1)}…`
    : single;
}
