import type { HitlCard } from '@youyou/contracts';
import type { RouteDecision } from './free-input-rules.ts';

/** Where a card sits, for settings of the project and conversation layers. */
export interface ClassifyContext {
  conversationId: string;
}

/**
 * The `lightweight` model (spec §4.7 routing by kind) as the classifier needs it: whether one is
 * configured (no fallback to the chat model: without one the rules alone decide), and one
 * completion. The server passes its model routing.
 */
export interface LightweightModel {
  isSet(context: ClassifyContext): Promise<boolean>;
  complete(
    request: { systemPrompt: string; text: string; signal: AbortSignal },
    context: ClassifyContext,
  ): Promise<string>;
}

/** Classifies free text the rules did not decide; undefined when it cannot. */
export type FreeInputClassifier = (
  card: HitlCard,
  text: string,
  context: ClassifyContext & { signal: AbortSignal },
) => Promise<RouteDecision | undefined>;

const CLASSIFY_TIMEOUT_MS = 15_000;

const SYSTEM_PROMPT = `You route a user's free-text reply to a question an assistant asked them.
Decide which it is:
- "choice": the user picks one of the listed options (give its id in choice_id);
- "answer": the user answers or clarifies the question in their own words;
- "new_request": the user ignores the question and asks for something else entirely.
Reply with one JSON object and nothing else: {"path": "choice" | "answer" | "new_request", "choice_id": "<id, only for choice>", "reason": "<a few words>"}`;

function promptOf(card: HitlCard, text: string): string {
  const options = card.choices.map(
    (choice, index) =>
      `${index + 1}. id=${choice.id}: ${choice.label}${choice.description === undefined ? '' : ` — ${choice.description}`}`,
  );
  return [
    `Question: ${card.question}`,
    options.length > 0 ? `Options:\n${options.join('\n')}` : 'Options: none (free answer)',
    `User's reply: ${text}`,
  ].join('\n\n');
}

function parseDecision(card: HitlCard, raw: string): RouteDecision | undefined {
  const match = /\{[\s\S]*\}/.exec(raw);
  if (match === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(match[0]);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const decision = value as { path?: unknown; choice_id?: unknown; reason?: unknown };
  const reason =
    typeof decision.reason === 'string' && decision.reason.trim() !== ''
      ? decision.reason.trim().slice(0, 200)
      : 'the lightweight model decided';
  if (decision.path === 'choice') {
    const choice = card.choices.find((item) => item.id === decision.choice_id);
    return choice === undefined ? undefined : { path: 'choice', by: 'model', reason, choice_id: choice.id };
  }
  if (decision.path === 'answer' || decision.path === 'new_request')
    return { path: decision.path, by: 'model', reason };
  return undefined;
}

/**
 * The second step of free-input routing: the `lightweight` model reads the question, the options
 * and the reply and says which path it is. Nothing configured or an answer it cannot parse give
 * undefined (a failure throws), and the caller falls back to path 2 (an answer).
 *
 * @example
 * const classify = lightweightClassifier(model);
 * const decision = await classify(card, 'what is the difference?', { conversationId, signal });
 */
export function lightweightClassifier(model: LightweightModel): FreeInputClassifier {
  return async (card, text, { signal, ...context }) => {
    if (!(await model.isSet(context))) return undefined;
    const reply = await model.complete(
      {
        systemPrompt: SYSTEM_PROMPT,
        text: promptOf(card, text),
        signal: AbortSignal.any([signal, AbortSignal.timeout(CLASSIFY_TIMEOUT_MS)]),
      },
      context,
    );
    return parseDecision(card, reply);
  };
}
