import type { CommandDescriptor, McpPromptInfo } from '@youyou/contracts';
import { templateVariables } from '@youyou/contracts';

/**
 * The built-in `/` commands (spec §4.14): the UI performs them. `/remember` writes a memory (spec
 * §4.13) of the user scope, or of the conversation's project with `scope: project`.
 */
export const BUILTIN_COMMANDS: readonly CommandDescriptor[] = [
  {
    name: 'new',
    source: 'builtin',
    action: 'client',
    description: { en: 'Start a new conversation', 'zh-CN': '新建会话' },
    parameters: [],
  },
  {
    name: 'model',
    source: 'builtin',
    action: 'client',
    description: { en: 'Choose the model of this conversation', 'zh-CN': '选择本会话的模型' },
    parameters: [
      { name: 'model', label: 'Model', type: 'string', required: false, placeholder: 'provider/model' },
    ],
  },
  {
    name: 'profile',
    source: 'builtin',
    action: 'client',
    description: { en: 'Switch the agent profile of this conversation', 'zh-CN': '切换本会话的智能体画像' },
    parameters: [{ name: 'profile', label: 'Profile', type: 'string', required: false }],
  },
  {
    name: 'export',
    source: 'builtin',
    action: 'client',
    description: {
      en: 'Download this conversation as Markdown, JSON, or an archive to import elsewhere',
      'zh-CN': '将本会话下载为 Markdown、JSON 或可在别处导入的归档',
    },
    parameters: [
      {
        name: 'format',
        label: 'Format',
        type: 'enum',
        enum: ['markdown', 'json', 'archive'],
        default: 'markdown',
        required: true,
      },
    ],
  },
  {
    name: 'remember',
    source: 'builtin',
    action: 'client',
    description: {
      en: 'Remember something in later conversations (memory must be on)',
      'zh-CN': '记住一件事，供以后的会话使用（需开启记忆）',
    },
    parameters: [
      { name: 'text', label: 'What to remember', type: 'text', required: true },
      {
        name: 'scope',
        label: 'Scope',
        type: 'enum',
        enum: ['user', 'project'],
        default: 'user',
        required: true,
      },
    ],
  },
  {
    name: 'help',
    source: 'builtin',
    action: 'client',
    description: { en: 'List every command', 'zh-CN': '列出所有命令' },
    parameters: [],
  },
];

export const BUILTIN_COMMAND_NAMES: readonly string[] = BUILTIN_COMMANDS.map((command) => command.name);

/**
 * Every `/` command with its source (spec §4.1 rule 4, §4.14): built-in ones, skills as
 * `/skill-name`, the user's macros, and commands extensions register. A name taken by an earlier
 * source is not offered again by a later one (built-in first, then skills, macros, extensions).
 *
 * @example
 * registry.register({ name: 'summarise', source: 'extension', action: 'macro', … });
 * const commands = registry.list({ skills, macros });
 */
export class CommandRegistry {
  readonly #registered = new Map<string, CommandDescriptor>();

  /** Adds an extension's command; a name registered twice is a programming error. */
  register(command: CommandDescriptor): void {
    if (this.#registered.has(command.name))
      throw new Error(`The command /${command.name} is registered already.`);
    this.#registered.set(command.name, command);
  }

  unregister(sourceId: string): void {
    for (const [name, command] of this.#registered)
      if (command.source_id === sourceId) this.#registered.delete(name);
  }

  list(sources: {
    skills: readonly { name: string; description: string; layer: string }[];
    macros: readonly { id: string; name: string; description: string; template: string }[];
    /** MCP servers' prompts (connected servers). */
    prompts?: readonly McpPromptInfo[];
  }): CommandDescriptor[] {
    const commands = new Map<string, CommandDescriptor>();
    const add = (command: CommandDescriptor): void => {
      if (!commands.has(command.name)) commands.set(command.name, command);
    };
    for (const command of BUILTIN_COMMANDS) add(command);
    for (const skill of sources.skills) {
      add({
        name: skill.name,
        source: 'skill',
        action: 'skill',
        description: { en: skill.description, 'zh-CN': skill.description },
        parameters: [{ name: 'arguments', label: 'Arguments', type: 'text', required: false }],
        source_id: skill.layer,
      });
    }
    for (const macro of sources.macros) {
      add({
        name: macro.name,
        source: 'macro',
        action: 'macro',
        description: {
          en: macro.description || macro.template.slice(0, 80),
          'zh-CN': macro.description || macro.template.slice(0, 80),
        },
        parameters: templateVariables(macro.template).map((variable) => ({
          name: variable,
          label: variable,
          type: 'text',
          required: true,
        })),
        source_id: macro.id,
      });
    }
    for (const command of this.#registered.values()) add(command);
    for (const prompt of sources.prompts ?? []) {
      add({
        name: prompt.command,
        source: 'mcp',
        action: 'mcp_prompt',
        description: { en: prompt.description, 'zh-CN': prompt.description },
        parameters: prompt.arguments.map((argument) => ({
          name: argument.name,
          label: argument.description === '' ? argument.name : argument.description,
          type: 'text',
          required: argument.required,
        })),
        source_id: `${prompt.server_id}:${prompt.name}`,
      });
    }
    return [...commands.values()];
  }
}
