import { z } from 'zod';

/** Where a `/` command comes from (spec §4.1 rule 4, §4.14). */
export const CommandSourceSchema = z.enum(['builtin', 'skill', 'macro', 'extension', 'mcp']);
export type CommandSource = z.infer<typeof CommandSourceSchema>;

/** A command's name as typed after `/`. */
export const COMMAND_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** One parameter of a command, rendered as a field of the composer's inline form. */
export const CommandParameterSchema = z.object({
  name: z.string().regex(/^[A-Za-z_][\w-]{0,63}$/),
  label: z.string().max(120).optional(),
  type: z.enum(['string', 'text', 'number', 'boolean', 'enum']),
  required: z.boolean(),
  enum: z.array(z.string()).optional(),
  default: z.union([z.string(), z.number(), z.boolean()]).optional(),
  placeholder: z.string().max(200).optional(),
});
export type CommandParameter = z.infer<typeof CommandParameterSchema>;

/**
 * What running a command does: `client` actions the UI performs (`new`, `model`, `profile`,
 * `export`, `help`), `skill` sends the message with that skill, `macro` expands a template into the
 * composer, `mcp_prompt` fills an MCP server's prompt (`source_id`: `<server id>:<prompt name>`) into
 * the composer.
 */
export const CommandActionSchema = z.enum(['client', 'skill', 'macro', 'mcp_prompt']);

/**
 * A `/` command as the registry lists it (`GET /api/commands`).
 *
 * @example
 * const help: CommandDescriptor = { name: 'help', source: 'builtin', action: 'client',
 *   description: { en: 'List the commands', 'zh-CN': '列出命令' }, parameters: [] };
 */
export const CommandDescriptorSchema = z.object({
  name: z.string().regex(COMMAND_NAME_PATTERN),
  source: CommandSourceSchema,
  action: CommandActionSchema,
  description: z.object({ en: z.string(), 'zh-CN': z.string() }),
  parameters: z.array(CommandParameterSchema),
  /** The macro's or extension's id, the skill's layer. */
  source_id: z.string().optional(),
  /** An extension command's text, `{{parameter}}` filled in, put into the composer to send. */
  template: z.string().max(50_000).optional(),
});
export type CommandDescriptor = z.infer<typeof CommandDescriptorSchema>;

export const CommandListSchema = z.object({ commands: z.array(CommandDescriptorSchema) });

/** `{{name}}` placeholders of a template, in first-seen order. */
export const TEMPLATE_VARIABLE = /\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/g;

/**
 * The variables a template asks for, each once, in order.
 *
 * @example
 * templateVariables('Translate {{text}} into {{language}}'); // ['text', 'language']
 */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(TEMPLATE_VARIABLE)) {
    const name = match[1] as string;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * The template with every `{{name}}` replaced by its value (missing ones by nothing).
 *
 * @example
 * fillTemplate('Hi {{who}}', { who: 'Ada' }); // 'Hi Ada'
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(TEMPLATE_VARIABLE, (_whole, name: string) => values[name] ?? '');
}

/** A user macro (spec §4.14): `/name` expands to a stored prompt template. */
export const MacroInputSchema = z.object({
  name: z.string().regex(COMMAND_NAME_PATTERN, 'a macro name: lowercase letters, digits, - and _'),
  description: z.string().max(300),
  template: z.string().min(1).max(50_000),
});
export type MacroInput = z.infer<typeof MacroInputSchema>;

export const MacroSchema = MacroInputSchema.extend({
  id: z.string(),
  /** The template's `{{variables}}`, in order. */
  variables: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Macro = z.infer<typeof MacroSchema>;

/** A prompt snippet of the library (spec §4.14), inserted into the composer. */
export const SnippetInputSchema = z.object({
  title: z.string().trim().min(1).max(120),
  body: z.string().min(1).max(50_000),
  tags: z.array(z.string().min(1).max(40)).max(20),
});
export type SnippetInput = z.infer<typeof SnippetInputSchema>;

export const SnippetSchema = SnippetInputSchema.extend({
  id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Snippet = z.infer<typeof SnippetSchema>;

/** The JSON file snippets (and macros) are exported to and imported from. */
export const LIBRARY_FILE_FORMAT = 'youyou.library';
export const LibraryFileSchema = z.object({
  format: z.literal(LIBRARY_FILE_FORMAT),
  version: z.literal(1),
  snippets: z.array(SnippetInputSchema).max(1000).default([]),
  macros: z.array(MacroInputSchema).max(1000).default([]),
});
export type LibraryFile = z.infer<typeof LibraryFileSchema>;
