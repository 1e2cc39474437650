import type { Intent, IntentMatch } from '@youyou/contracts';

/** An intent with the source that provides it. */
export interface SourcedIntent {
  source: string;
  intent: Intent;
}

const SENTENCE_END = /[,.;:!?，。；：！？\n]/;

function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The value after one of the slot's marker words, up to the end of the clause. */
function slotAfter(text: string, markers: readonly string[]): string | undefined {
  const lower = text.toLowerCase();
  for (const marker of markers) {
    const at = lower.indexOf(marker.toLowerCase());
    if (at < 0) continue;
    const before = at === 0 ? ' ' : lower[at - 1];
    // A Latin marker must start a word ("in", not "within"); CJK markers stand anywhere.
    if (/^[a-z]/i.test(marker) && before !== undefined && /[a-z0-9]/i.test(before)) continue;
    const rest = text.slice(at + marker.length).replace(/^[\s:：]+/, '');
    const value = rest.split(SENTENCE_END)[0]?.trim() ?? '';
    if (value !== '') return value;
  }
  return undefined;
}

/**
 * Which installed intent a piece of free input asks for (spec §4.6 intentgate): a keyword found in
 * the text, or the text equal to one of the examples, wins; the slots are read from the text
 * (enum values anywhere, other values after their marker words) and the required ones not found
 * are listed as missing (they become HITL questions). No intent matches → undefined, and routing
 * stays the built-in one.
 *
 * @example
 * matchIntent([{ source: 'extension:example', intent }], 'weather report for Paris');
 * // { intent_id: 'weather', source: 'extension:example', score: 2, slots: { city: 'Paris' }, missing: [] }
 */
export function matchIntent(intents: readonly SourcedIntent[], text: string): IntentMatch | undefined {
  const normalized = normalize(text);
  if (normalized === '') return undefined;
  let best: IntentMatch | undefined;
  for (const { source, intent } of intents) {
    let score = 0;
    for (const keyword of intent.keywords) if (normalized.includes(normalize(keyword))) score += 2;
    for (const example of intent.examples) if (normalized === normalize(example)) score += 3;
    if (score === 0) continue;
    const slots: Record<string, string> = {};
    const missing: string[] = [];
    for (const slot of intent.slots) {
      let value: string | undefined;
      if (slot.type === 'enum')
        value = slot.enum?.find((option) => normalized.includes(option.toLowerCase()));
      else value = slotAfter(text, slot.after);
      if (value !== undefined && slot.type === 'number' && Number.isNaN(Number(value))) value = undefined;
      if (value !== undefined) slots[slot.name] = value;
      else if (slot.required) missing.push(slot.name);
    }
    if (best === undefined || score > best.score)
      best = { intent_id: intent.id, source, score, slots, missing };
  }
  return best;
}
