import { stringify } from 'yaml';
import type { ComponentKind } from '../components/index.ts';
import { AgentError } from '../errors/index.ts';
import { MAX_ENTRY_FILE_BYTES, SKILL_FILE } from './component-names.ts';
import type { EntryReadResult, FieldIssue } from './front-matter-reader.ts';
import { parseFrontMatter } from './front-matter.ts';
import { readPluginEntry } from './plugin-entry.ts';
import type { FilePluginDefinition } from './plugin-entry.ts';
import type { ScriptCommand } from './script-command.ts';
import { readAgentSkillEntry, readSkillEntry } from './skill-entry.ts';
import { readToolEntry } from './tool-entry.ts';
import type { FileToolDefinition } from './tool-entry.ts';

/**
 * Writes an entry file from front matter and a body. `version: 1` and the name field (`name`, or
 * `id` for plugins) come first and are filled in when absent.
 *
 * @example
 * composeEntry('skill', 'commit', { description: 'Write a commit message.' }, 'Read the diff…');
 * // '---\nversion: 1\nname: commit\ndescription: Write a commit message.\n---\n\nRead the diff…\n'
 */
export function composeEntry(
  kind: ComponentKind,
  name: string,
  frontMatter: Readonly<Record<string, unknown>>,
  body: string,
): string {
  const nameField = kind === 'plugin' ? 'id' : 'name';
  const { version, [nameField]: declaredName, ...rest } = frontMatter;
  const ordered = { version: version ?? 1, [nameField]: declaredName ?? name, ...rest };
  const trimmedBody = body.trim();
  return `---\n${stringify(ordered, { lineWidth: 0 })}---\n${trimmedBody === '' ? '' : `\n${trimmedBody}\n`}`;
}

/**
 * Checks that an entry file will load (the same readers as the loader) and returns its warnings.
 * A file that would be skipped throws INVALID_INPUT with every reason in `details.reasons`.
 *
 * @example
 * validateEntry('tool', 'grep', 'index.md', text); // [] or warnings; throws when it would not load
 */
export function validateEntry(
  kind: ComponentKind,
  name: string,
  entryFile: string,
  text: string,
): { warnings: FieldIssue[]; definition: FileToolDefinition | FilePluginDefinition | undefined } {
  if (Buffer.byteLength(text) > MAX_ENTRY_FILE_BYTES) {
    throw new AgentError(
      'INVALID_INPUT',
      `${entryFile} is larger than ${String(MAX_ENTRY_FILE_BYTES)} bytes`,
      {
        details: { entryFile },
      },
    );
  }
  const parsed = parseFrontMatter(text);
  if (!parsed.ok) {
    throw invalidEntry(kind, name, entryFile, [
      parsed.failure.line === undefined
        ? { message: parsed.failure.reason }
        : { message: parsed.failure.reason, line: parsed.failure.line },
    ]);
  }
  const result: EntryReadResult<FileToolDefinition | FilePluginDefinition | object> =
    kind === 'tool'
      ? readToolEntry(parsed.value, name)
      : kind === 'plugin'
        ? readPluginEntry(parsed.value, name)
        : entryFile === SKILL_FILE
          ? readAgentSkillEntry(parsed.value, name)
          : readSkillEntry(parsed.value, name);
  if (!result.ok) throw invalidEntry(kind, name, entryFile, result.errors);
  const definition =
    kind === 'skill' ? undefined : (result.value as FileToolDefinition | FilePluginDefinition);
  return { warnings: [...result.warnings], definition };
}

/**
 * The relative script paths a tool or plugin will run: `command` when it names a file in the
 * folder (has a separator or starts with `.`), and `./`-style `args`.
 *
 * @example
 * scriptPathsOf({ name: 'grep', execution: { command: './run.sh', args: ['./lib.py'] } } as FileToolDefinition);
 * // ['run.sh', 'lib.py']
 */
export function scriptPathsOf(definition: FileToolDefinition | FilePluginDefinition): string[] {
  const commands: ScriptCommand[] =
    'execution' in definition ? [definition.execution] : Object.values(definition.hooks);
  const paths: string[] = [];
  for (const command of commands) {
    for (const candidate of [
      command.command,
      ...command.args.filter((argument) => /^\.\.?\//.test(argument)),
    ]) {
      if (candidate.startsWith('/') || !(candidate.includes('/') || candidate.startsWith('.'))) continue;
      const normalised = candidate.replace(/^(\.\/)+/, '');
      if (!normalised.startsWith('../')) paths.push(normalised);
    }
  }
  return paths;
}

function invalidEntry(
  kind: ComponentKind,
  name: string,
  entryFile: string,
  errors: readonly FieldIssue[],
): AgentError {
  const reasons = errors.map((issue) =>
    issue.line === undefined ? issue.message : `${issue.message} (line ${String(issue.line)})`,
  );
  return new AgentError('INVALID_INPUT', `The ${kind} ${name} would not load: ${reasons.join('; ')}`, {
    details: { kind, name, entryFile, reasons },
  });
}
