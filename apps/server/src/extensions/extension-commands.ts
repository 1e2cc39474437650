import { COMMAND_NAME_PATTERN, templateVariables } from '@youyou/contracts';
import type { CommandRegistry } from '../library/index.ts';
import type { ServerLogger } from '../logging/index.ts';
import type { LoadedExtension } from './extension-loader.ts';
import { workflowToolName } from './workflow-tool.ts';

/**
 * The extension's slash commands into the command registry: a template command as a macro, a
 * workflow command (only where workflows can run) as a template that types the command itself.
 */
export function registerExtensionCommands(
  commands: CommandRegistry,
  extension: LoadedExtension,
  options: { workflows: boolean; logger: ServerLogger },
): void {
  const id = extension.manifest.id;
  for (const command of extension.commands) {
    const workflow =
      command.workflow === undefined
        ? undefined
        : extension.workflows.find((item) => item.id === command.workflow);
    if (command.template === undefined && (workflow === undefined || !options.workflows)) continue;
    try {
      commands.register({
        name: command.name,
        source: 'extension',
        action: 'macro',
        description: command.description,
        parameters: command.parameters,
        source_id: id,
        // A workflow command fills in as itself with its parameters (`/city-report city=Oslo`):
        // sent, it starts the workflow's run directly (workflowCommand), no model in between.
        ...(workflow === undefined
          ? { template: command.template ?? '' }
          : {
              // Without parameters a space ends it, so the composer's `/` palette stays closed.
              template:
                command.parameters.length === 0
                  ? `/${command.name} `
                  : `/${command.name}${command.parameters.map((parameter) => ` ${parameter.name}={{${parameter.name}}}`).join('')}`,
            }),
      });
    } catch (error) {
      options.logger.warn(
        { err: error, extension: id, command: command.name },
        'an extension command is not registered',
      );
    }
  }
  // A prompt is applied from `/` like a macro: its text fills the composer (spec §4.6 prompts).
  for (const prompt of extension.prompts) {
    if (!COMMAND_NAME_PATTERN.test(prompt.id)) continue;
    try {
      commands.register({
        name: prompt.id,
        source: 'extension',
        action: 'macro',
        description: { en: promptSummary(prompt.text), 'zh-CN': promptSummary(prompt.text) },
        parameters: templateVariables(prompt.text).map((variable) => ({
          name: variable,
          label: variable,
          type: 'text' as const,
          required: true,
        })),
        source_id: id,
        template: prompt.text.trim(),
      });
    } catch (error) {
      options.logger.warn(
        { err: error, extension: id, prompt: prompt.id },
        'an extension prompt is not registered as a command',
      );
    }
  }
}

/** A prompt's `/` menu line: its first line, cut short. */
function promptSummary(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

export function unregisterExtensionCommands(commands: CommandRegistry, id: string): void {
  commands.unregister(id);
}

/**
 * A command's arguments from what follows its name: `name=value` pairs (a value runs to the next
 * pair; quotes around it are dropped), or the whole text as the first parameter's value.
 */
function commandArguments(names: readonly string[], text: string): Record<string, unknown> {
  const known = names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const trimmed = text.trim();
  if (trimmed === '') return {};
  const values: Record<string, unknown> = {};
  if (known !== '') {
    const pairs = [...trimmed.matchAll(new RegExp(`(?:^|\\s)(${known})=`, 'g'))];
    pairs.forEach((pair, index) => {
      const start = (pair.index ?? 0) + pair[0].length;
      const end = pairs[index + 1]?.index ?? trimmed.length;
      values[pair[1] ?? ''] = trimmed
        .slice(start, end)
        .trim()
        .replace(/^(["'])(.*)\1$/s, '$2');
    });
    if (pairs.length > 0) return values;
  }
  const first = names[0];
  return first === undefined ? {} : { [first]: trimmed };
}

/**
 * A message that is one of these extensions' workflow commands — `/city-report city=Oslo`, or
 * `/city-report Oslo` for its first parameter — as the workflow tool's call; undefined for any
 * other text.
 */
export function workflowCommandCall(
  extensions: readonly LoadedExtension[],
  text: string,
): { toolName: string; arguments: Record<string, unknown> } | undefined {
  const typed = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (typed === null) return undefined;
  const [, name = '', rest = ''] = typed;
  for (const extension of extensions) {
    const command = extension.commands.find((item) => item.name === name && item.workflow !== undefined);
    const workflow = extension.workflows.find((item) => item.id === command?.workflow);
    if (command === undefined || workflow === undefined) continue;
    const values = commandArguments(
      command.parameters.map((parameter) => parameter.name),
      rest,
    );
    // Typed text is text: a number or boolean parameter gets its value as one.
    for (const parameter of command.parameters) {
      const value = values[parameter.name];
      if (typeof value !== 'string') continue;
      if (parameter.type === 'number' && Number.isFinite(Number(value)))
        values[parameter.name] = Number(value);
      if (parameter.type === 'boolean') values[parameter.name] = value === 'true';
    }
    return { toolName: workflowToolName(workflow.id), arguments: values };
  }
  return undefined;
}
