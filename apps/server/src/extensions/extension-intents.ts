import { extensionSource, fillTemplate, type IntentMatch } from '@youyou/contracts';
import type { LoadedExtension } from './extension-loader.ts';
import { matchIntent } from './intent-router.ts';
import { workflowToolName } from './workflow-tool.ts';

/**
 * The intent of these extensions free input asks for, and the request that starts it (its
 * workflow's tool with the slots found, or its command's template); undefined with no intent
 * matching.
 */
export function intentRequest(
  extensions: readonly LoadedExtension[],
  text: string,
): { match: IntentMatch; request: string } | undefined {
  const intents = extensions.flatMap((extension) =>
    extension.intents.map((intent) => ({ source: extensionSource(extension.manifest.id), intent })),
  );
  if (intents.length === 0) return undefined;
  const match = matchIntent(intents, text);
  if (match === undefined) return undefined;
  const extension = extensions.find((item) => extensionSource(item.manifest.id) === match.source);
  const intent = extension?.intents.find((item) => item.id === match.intent_id);
  if (extension === undefined || intent === undefined) return undefined;
  const slots = Object.entries(match.slots).map(([name, value]) => `${name} = ${value}`);
  if (intent.workflow !== undefined) {
    const workflow = extension.workflows.find((item) => item.id === intent.workflow);
    if (workflow === undefined) return undefined;
    return {
      match,
      request: `${text}\n\n(The intent “${intent.title}” of ${match.source}: run the workflow “${workflow.title}” (call ${workflowToolName(workflow.id)})${slots.length === 0 ? '' : ` with ${slots.join(', ')}`}.)`,
    };
  }
  const command = extension.commands.find((item) => item.name === intent.command);
  if (command?.template === undefined) return undefined;
  return { match, request: fillTemplate(command.template, match.slots) };
}
