import type { ChatEvent } from '@youyou/agent';

type DeltaType = 'text_delta' | 'reasoning_delta' | 'refusal_delta';

function delta(type: DeltaType, text: string): ChatEvent {
  return { type, text };
}

function isDelta(event: ChatEvent): event is Extract<ChatEvent, { type: DeltaType }> {
  return event.type === 'text_delta' || event.type === 'reasoning_delta' || event.type === 'refusal_delta';
}

/**
 * Merges adjacent text deltas, adjacent reasoning deltas and adjacent refusal deltas, that arrived in one network read.
 * The consumer gets the same text at the same moment in fewer events, which spares every layer
 * above (turn loop, event log, SSE to the browser) work per delta. Order is kept; nothing else merges.
 *
 * @example
 * coalesceDeltas([{ type: 'text_delta', text: 'a' }, { type: 'text_delta', text: 'b' }]);
 * // [{ type: 'text_delta', text: 'ab' }]
 */
export function coalesceDeltas(events: ChatEvent[]): ChatEvent[] {
  if (events.length < 2) return events;
  const merged: ChatEvent[] = [];
  let pendingType: DeltaType | undefined;
  let text = '';
  for (const event of events) {
    if (isDelta(event)) {
      if (event.type === pendingType) {
        text += event.text;
        continue;
      }
      if (pendingType !== undefined) merged.push(delta(pendingType, text));
      pendingType = event.type;
      text = event.text;
      continue;
    }
    if (pendingType !== undefined) merged.push(delta(pendingType, text));
    pendingType = undefined;
    merged.push(event);
  }
  if (pendingType !== undefined) merged.push(delta(pendingType, text));
  return merged;
}

/**
 * Appends a text, reasoning or refusal delta to a batch being decoded, extending the batch's last event
 * when it is a delta of the same type (the batch is the decoder's own, not yet handed out).
 * Empty text is dropped.
 *
 * @example
 * const out: ChatEvent[] = [];
 * pushDelta(out, 'text_delta', 'a');
 * pushDelta(out, 'text_delta', 'b'); // out: [{ type: 'text_delta', text: 'ab' }]
 */
export function pushDelta(out: ChatEvent[], type: DeltaType, text: string): void {
  if (text.length === 0) return;
  const last = out[out.length - 1];
  if (last !== undefined && isDelta(last) && last.type === type) {
    last.text += text;
    return;
  }
  out.push(delta(type, text));
}
