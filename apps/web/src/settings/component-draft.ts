import type { ComponentDraft } from '../api/index.ts';
import type { ComponentKind } from '@youyou/contracts';

/** What the component form holds. */
export interface ComponentFormValues {
  kind: ComponentKind;
  name: string;
  layer: 'global' | 'project';
  description: string;
  body: string;
  /** Tools: the command and the script it runs. */
  command: string;
  script: string;
  /** Tools: `name:type:description`, one per line, `*` after the name for required. */
  parameters: string;
  /** Tools: it changes files or the world (run one at a time, confirmed by policy). */
  mutating: boolean;
  /**
   * The person confirmed the trust warning (spec §1.3): a mutating tool or a plugin runs any
   * command as them. Creating one needs it.
   */
  acknowledged: boolean;
}

/**
 * True when creating this component must show the §1.3 warning and have it confirmed: a plugin
 * (its hooks run commands) or a mutating tool.
 *
 * @example
 * needsTrustWarning({ ...values, kind: 'plugin' }); // true
 */
export function needsTrustWarning(values: Pick<ComponentFormValues, 'kind' | 'mutating'>): boolean {
  return values.kind === 'plugin' || (values.kind === 'tool' && values.mutating);
}

export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const PARAMETER_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/** Problems of the form, by field; empty when it can be saved. */
export function validateComponentForm(
  values: ComponentFormValues,
  creating = true,
): Partial<Record<keyof ComponentFormValues, 'required' | 'invalid'>> {
  const problems: Partial<Record<keyof ComponentFormValues, 'required' | 'invalid'>> = {};
  if (creating && needsTrustWarning(values) && !values.acknowledged) problems.acknowledged = 'required';
  if (values.name === '') problems.name = 'required';
  else if (!NAME_PATTERN.test(values.name)) problems.name = 'invalid';
  if (values.kind === 'skill' && values.description.trim() === '') problems.description = 'required';
  if (values.kind !== 'plugin' && values.body.trim() === '') problems.body = 'required';
  if (values.kind === 'tool') {
    if (values.command.trim() === '') problems.command = 'required';
    try {
      parseParameters(values.parameters);
    } catch {
      problems.parameters = 'invalid';
    }
  }
  return problems;
}

/**
 * Parses the parameter lines of the tool form into the `parameters` list of a tool's index.md.
 *
 * @example
 * parseParameters('text*:string:The text.'); // [{ name: 'text', type: 'string', description: 'The text.', required: true }]
 */
export function parseParameters(
  text: string,
): { name: string; type: string; description: string; required?: boolean }[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [rawName = '', rawType = 'string', ...rest] = line.split(':');
      const required = rawName.endsWith('*');
      const name = rawName.replace(/\*$/, '').trim();
      const type = rawType.trim() === '' ? 'string' : rawType.trim();
      if (!NAME_PATTERN.test(name) || !PARAMETER_TYPES.has(type))
        throw new Error(`bad parameter line: ${line}`);
      return { name, type, description: rest.join(':').trim(), ...(required ? { required: true } : {}) };
    });
}

/** The front matter the form produces (the server adds `version` and the name, then validates). */
export function frontMatterOf(values: ComponentFormValues): Record<string, unknown> {
  if (values.kind === 'skill') return { description: values.description.trim() };
  // A plugin's index.md has no `description` field (the loader would warn and drop it): what
  // it does is its body, see `bodyOf`.
  if (values.kind === 'plugin') return { display_name: values.name, enabled: true };
  const parameters = parseParameters(values.parameters);
  return {
    ...(values.mutating ? { mutating: true } : {}),
    ...(parameters.length === 0 ? {} : { parameters }),
    execution: { command: values.command.trim() },
  };
}

/** The Markdown body: for a plugin, its description and then the rest. */
export function bodyOf(values: ComponentFormValues): string {
  if (values.kind !== 'plugin') return values.body.trim();
  return [values.description.trim(), values.body.trim()].filter((text) => text !== '').join('\n\n');
}

/** The draft to send to the server: front matter, body, and the tool's script as a file. */
export function draftOf(values: ComponentFormValues): ComponentDraft {
  const script = values.script.trim();
  const command = values.command.trim().replace(/^\.\//, '');
  return {
    kind: values.kind,
    name: values.name,
    layer: values.layer,
    frontMatter: frontMatterOf(values),
    body: bodyOf(values),
    ...(values.kind === 'tool' && script !== ''
      ? { files: [{ path: command, content: `${script}\n`, executable: true }] }
      : {}),
  };
}

function yamlScalar(value: unknown): string {
  if (typeof value === 'string')
    return /^[\w./ -]+$/.test(value) && value.trim() === value && value !== ''
      ? value
      : JSON.stringify(value);
  return String(value);
}

function yamlLines(value: unknown, indent: string): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      const [first = '', ...rest] = yamlLines(item, `${indent}  `).map((line) =>
        line.slice(indent.length + 2),
      );
      return [`${indent}- ${first}`, ...rest.map((line) => `${indent}  ${line}`)];
    });
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) =>
      typeof item === 'object' && item !== null
        ? [`${indent}${key}:`, ...yamlLines(item, `${indent}  `)]
        : [`${indent}${key}: ${yamlScalar(item)}`],
    );
  }
  return [`${indent}${yamlScalar(value)}`];
}

/**
 * The index.md the form will produce, for the preview (the server writes the real one with the
 * same fields and checks that it loads).
 */
export function previewEntry(values: ComponentFormValues): string {
  let frontMatter: Record<string, unknown>;
  try {
    frontMatter = frontMatterOf(values);
  } catch {
    frontMatter = {};
  }
  const nameField = values.kind === 'plugin' ? 'id' : 'name';
  const lines = yamlLines({ version: 1, [nameField]: values.name, ...frontMatter }, '');
  const body = bodyOf(values);
  return `---\n${lines.join('\n')}\n---\n${body === '' ? '' : `\n${body}\n`}`;
}
