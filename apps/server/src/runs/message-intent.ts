import type { FormField, IntentMatch, IntentSlot } from '@youyou/contracts';
import type { HitlService } from '../hitl/index.ts';
import type { RunBinding } from '../tools/index.ts';

/** The entry gate as a run sees it (the extension host's intent gate). */
export interface MessageIntentGate {
  /** The intent an ordinary message asks for: the rules, then the lightweight model; undefined: none. */
  match(
    text: string,
    context: { conversationId: string; signal: AbortSignal },
  ): Promise<
    { match: IntentMatch; by: 'rule' | 'model'; title: string; missing: readonly IntentSlot[] } | undefined
  >;
  /** The request that starts the intent with its slots (undefined: it went away). */
  request(match: IntentMatch, typed: string): string | undefined;
}

function fieldOf(slot: IntentSlot): FormField {
  const label = `${slot.question.en} / ${slot.question['zh-CN']}`;
  if (slot.type === 'enum')
    return {
      id: slot.name,
      type: 'select',
      label,
      required: true,
      options: (slot.enum ?? []).map((value) => ({ value, label: value })),
    };
  return {
    id: slot.name,
    type: slot.type === 'number' ? 'number' : 'text',
    label,
    required: true,
    maxLength: 500,
  };
}

/**
 * The entry gate for an ordinary message (spec §4.6 intentgate): when an installed intent
 * recognises it, the model gets the intent's request instead of the typed text (the conversation
 * keeps what was typed); the required slots the message did not give are asked first, on one HITL
 * form card of the run. A card not answered (expired, or replaced by another request) leaves the
 * text as typed; no intent, or a lightweight model that fails, too.
 *
 * @example
 * const request = await messageIntentRequest({ gate, hitl, binding, text: 'weather report please', signal });
 */
export async function messageIntentRequest(options: {
  gate: MessageIntentGate;
  hitl: HitlService;
  binding: RunBinding;
  text: string;
  signal: AbortSignal;
  onModelFailure(error: unknown): void;
}): Promise<string | undefined> {
  const { gate, binding, text } = options;
  const found = await gate
    .match(text, { conversationId: binding.conversationId, signal: options.signal })
    .catch((error: unknown) => {
      if (options.signal.aborted) throw error;
      // The gate is a shortcut: without its answer the chat model still has the catalog.
      options.onModelFailure(error);
      return undefined;
    });
  if (found === undefined) return undefined;
  const slots = { ...found.match.slots };
  if (found.missing.length > 0) {
    const resolution = await options.hitl.ask(
      binding,
      {
        question: `${found.title}: a few details first. / ${found.title}：请先补充几项信息。`,
        kind: 'form',
        fields: found.missing.map(fieldOf),
      },
      { callId: `intent-${binding.runId}` },
    );
    const answer = resolution.answer;
    if (resolution.status !== 'answered' || answer?.type !== 'form') return undefined;
    for (const slot of found.missing) {
      const value = answer.values[slot.name];
      if (typeof value === 'string' || typeof value === 'number') slots[slot.name] = String(value).trim();
    }
  }
  return gate.request({ ...found.match, slots, missing: [] }, text);
}
