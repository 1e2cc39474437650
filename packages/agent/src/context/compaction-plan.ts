import type { Message, UserMessage } from '../provider/index.ts';

/** Where to cut the history: messages before `keptFrom` are summarised, except a few user messages. */
export interface CompactionPlan {
  keptFrom: number;
  /** Indices (< keptFrom) of recent user messages kept verbatim, in order. */
  keptUserMessages: number[];
}

export interface PlanOptions {
  /** Token budget for the verbatim tail. */
  tailBudget: number;
  /** How many of the latest user messages stay verbatim. */
  recentUserMessages: number;
}

/**
 * Picks the cut. The tail starts at a user or assistant message, never at a tool result, so a tool
 * call is never separated from its result. Returns `undefined` when there is nothing to compact.
 */
export function planCompaction(
  messages: readonly Message[],
  sizes: readonly number[],
  options: PlanOptions,
): CompactionPlan | undefined {
  let tail = 0;
  let keptFrom = -1;
  let lastBoundary = -1;
  for (let index = messages.length - 1; index >= 1; index--) {
    tail += sizes[index] ?? 0;
    if (messages[index]?.role === 'tool') continue;
    if (lastBoundary === -1) lastBoundary = index;
    if (tail > options.tailBudget) break;
    keptFrom = index;
  }
  // Even the last exchange is over budget: keep just it, whole.
  if (keptFrom === -1) keptFrom = lastBoundary;
  if (keptFrom <= 0) return undefined;

  const keptUserMessages: number[] = [];
  let userBudget = options.tailBudget / 2;
  let usersSeen = messages.slice(keptFrom).filter(isUserMessage).length;
  for (let index = keptFrom - 1; index >= 0 && usersSeen < options.recentUserMessages; index--) {
    const message = messages[index];
    if (message === undefined || !isUserMessage(message)) continue;
    usersSeen++;
    const size = sizes[index] ?? 0;
    if (size > userBudget) break;
    userBudget -= size;
    keptUserMessages.unshift(index);
  }
  return { keptFrom, keptUserMessages };
}

function isUserMessage(message: Message): message is UserMessage {
  return message.role === 'user' && !isSummaryMessage(message);
}

export const SUMMARY_HEADER = '[Summary of the earlier conversation, written when the context was compacted]';
export const TRUNCATION_NOTICE =
  '[Earlier messages of this conversation were removed to fit the context window; no summary is available.]';

export function isSummaryMessage(message: Message): boolean {
  const first = message.role === 'user' ? message.content[0] : undefined;
  return (
    first?.type === 'text' && (first.text.startsWith(SUMMARY_HEADER) || first.text === TRUNCATION_NOTICE)
  );
}

/** The list after compaction: summary (or truncation notice), kept user messages, then the tail. */
export function applyCompaction(
  messages: readonly Message[],
  plan: CompactionPlan,
  summary: string | undefined,
): Message[] {
  const head: Message = {
    role: 'user',
    content: [
      { type: 'text', text: summary === undefined ? TRUNCATION_NOTICE : `${SUMMARY_HEADER}\n\n${summary}` },
    ],
  };
  const kept = plan.keptUserMessages.flatMap((index) => {
    const message = messages[index];
    return message === undefined ? [] : [message];
  });
  return [head, ...kept, ...messages.slice(plan.keptFrom)];
}
