import { extensionSource, fillTemplate, type IntentMatch, type IntentSlot } from '@youyou/contracts';
import type { LightweightModel } from '../hitl/index.ts';
import type { LoadedExtension } from './extension-loader.ts';
import { matchIntent, type SourcedIntent } from './intent-router.ts';
import { workflowToolName } from './workflow-tool.ts';

/** Who recognised the intent: the keyword and example rules, or the lightweight model. */
export type IntentDecider = 'rule' | 'model';

/** An intent an ordinary message asks for, with the slots it still needs. */
export interface MessageIntent {
  match: IntentMatch;
  by: IntentDecider;
  title: string;
  /** The required slots the message did not give: asked on one form card before the model runs. */
  missing: IntentSlot[];
}

const CLASSIFY_TIMEOUT_MS = 15_000;

/** The system prompt of the lightweight model's intent decision; tests recognise requests by it. */
export const INTENT_GATE_SYSTEM_PROMPT = `You decide whether a user's message asks for one of the installed intents listed below.
Pick an intent only when the message clearly asks for what it does; otherwise answer none.
Reply with one JSON object and nothing else: {"intent": "<intent id, or null for none>", "slots": {"<slot name>": "<value found in the message>"}}`;

function howStarted(extension: LoadedExtension, intent: SourcedIntent['intent']): string {
  if (intent.workflow !== undefined) {
    const workflow = extension.workflows.find((item) => item.id === intent.workflow);
    return workflow === undefined ? '' : `call the tool ${workflowToolName(workflow.id)}`;
  }
  const command = extension.commands.find((item) => item.name === intent.command);
  return command === undefined ? '' : `as the command /${command.name}`;
}

/**
 * The entry gate for ordinary messages (spec §4.6 intentgate): which installed intent a message
 * asks for — the keyword and example rules first, then, where a lightweight model is set, that
 * model reading the intent catalog — and the request that starts it once its slots are filled.
 * The same catalog goes to the chat model, so a user need not know an intent's command.
 *
 * @example
 * const gate = new IntentGate(() => extensions.activeExtensions(), lightweightModel);
 * const found = await gate.match('what will the weather be like in Oslo?', { conversationId, signal });
 * const request = found === undefined ? undefined : gate.request(found.match);
 */
export class IntentGate {
  readonly #extensions: () => readonly LoadedExtension[];
  /** The gate's second step; without one, only the rules decide. */
  readonly #model: LightweightModel | undefined;

  constructor(extensions: () => readonly LoadedExtension[], model?: LightweightModel) {
    this.#extensions = extensions;
    this.#model = model;
  }

  /**
   * The rules alone, for `/` messages and a card's free input: the intent the text asks for and
   * the request that starts it; undefined with no intent matching (T0).
   */
  ruleRequest(text: string): { match: IntentMatch; request: string } | undefined {
    const match = matchIntent(this.#intents(), text);
    const request = match === undefined ? undefined : this.request(match, text);
    return match === undefined || request === undefined ? undefined : { match, request };
  }

  #intents(): (SourcedIntent & { extension: LoadedExtension })[] {
    return this.#extensions().flatMap((extension) =>
      extension.intents.map((intent) => ({
        source: extensionSource(extension.manifest.id),
        intent,
        extension,
      })),
    );
  }

  /**
   * The intent catalog as text: each intent's id, title, examples, slots and how it starts; ''
   * with no intent installed (T0: the prompt is unchanged).
   */
  catalog(): string {
    const lines = this.#intents().flatMap(({ source, intent, extension }) => {
      const how = howStarted(extension, intent);
      if (how === '') return [];
      const slots = intent.slots.map(
        (slot) =>
          `${slot.name}${slot.required ? '' : ' (optional)'}${slot.type === 'enum' ? ` ∈ {${(slot.enum ?? []).join(', ')}}` : ''}: ${slot.question.en}`,
      );
      const examples = intent.examples.map((example) => `“${example}”`);
      return [
        `- ${intent.id} (${source}): ${intent.title}; ${how}.` +
          (examples.length === 0 ? '' : ` Examples: ${examples.join(', ')}.`) +
          (slots.length === 0 ? '' : ` Slots: ${slots.join('; ')}.`),
      ];
    });
    return lines.length === 0
      ? ''
      : `Installed intents (what the user can ask for by name or in their own words):\n${lines.join('\n')}`;
  }

  /** The intent the message asks for, or undefined (none installed, none matching: the text goes as typed). */
  async match(
    text: string,
    context: { conversationId: string; signal: AbortSignal },
  ): Promise<MessageIntent | undefined> {
    const intents = this.#intents();
    if (intents.length === 0 || text.trim() === '') return undefined;
    const ruled = matchIntent(intents, text);
    if (ruled !== undefined) return this.#found(ruled, 'rule');
    if (this.#model === undefined || !(await this.#model.isSet(context))) return undefined;
    const reply = await this.#model.complete(
      {
        systemPrompt: `${INTENT_GATE_SYSTEM_PROMPT}\n\n${this.catalog()}`,
        text: `The user's message: ${text}`,
        signal: AbortSignal.any([context.signal, AbortSignal.timeout(CLASSIFY_TIMEOUT_MS)]),
      },
      { conversationId: context.conversationId },
    );
    const decided = this.#parse(reply, intents);
    return decided === undefined ? undefined : this.#found(decided, 'model');
  }

  /** The request an intent's match makes: its workflow's tool with the slots, or its command's template. */
  request(match: IntentMatch, typed: string): string | undefined {
    const found = this.#intents().find(
      (item) => item.source === match.source && item.intent.id === match.intent_id,
    );
    if (found === undefined) return undefined;
    const { intent, extension } = found;
    const slots = Object.entries(match.slots).map(([name, value]) => `${name} = ${value}`);
    if (intent.workflow !== undefined) {
      const workflow = extension.workflows.find((item) => item.id === intent.workflow);
      if (workflow === undefined) return undefined;
      return `${typed}\n\n(The intent “${intent.title}” of ${match.source}: run the workflow “${workflow.title}” (call ${workflowToolName(workflow.id)})${slots.length === 0 ? '' : ` with ${slots.join(', ')}`}.)`;
    }
    const command = extension.commands.find((item) => item.name === intent.command);
    if (command?.template === undefined) return undefined;
    return fillTemplate(command.template, match.slots);
  }

  #found(match: IntentMatch, by: IntentDecider): MessageIntent | undefined {
    const intent = this.#intents().find(
      (item) => item.source === match.source && item.intent.id === match.intent_id,
    )?.intent;
    if (intent === undefined) return undefined;
    const missing = intent.slots.filter((slot) => match.missing.includes(slot.name));
    return { match, by, title: intent.title, missing };
  }

  /** The model's answer as a match: a known intent, its declared slots only; anything else is none. */
  #parse(reply: string, intents: readonly SourcedIntent[]): IntentMatch | undefined {
    const json = /\{[\s\S]*\}/.exec(reply);
    if (json === null) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(json[0]);
    } catch {
      return undefined;
    }
    if (typeof value !== 'object' || value === null) return undefined;
    const decision = value as { intent?: unknown; slots?: unknown };
    const found = intents.find(({ intent }) => intent.id === decision.intent);
    if (found === undefined) return undefined;
    const given =
      typeof decision.slots === 'object' && decision.slots !== null
        ? (decision.slots as Record<string, unknown>)
        : {};
    const slots: Record<string, string> = {};
    const missing: string[] = [];
    for (const slot of found.intent.slots) {
      const raw = given[slot.name];
      let text = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
      if (slot.type === 'enum' && !(slot.enum ?? []).includes(text)) text = '';
      if (slot.type === 'number' && Number.isNaN(Number(text))) text = '';
      if (text !== '') slots[slot.name] = text;
      else if (slot.required) missing.push(slot.name);
    }
    return { intent_id: found.intent.id, source: found.source, score: 0, slots, missing };
  }
}
