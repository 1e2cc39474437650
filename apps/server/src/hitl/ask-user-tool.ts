import type { ToolHandler } from '@youyou/agent';
import {
  cardDraftProblems,
  type HitlCard,
  type HitlCardDraft,
  type HitlResolvedPayload,
} from '@youyou/contracts';
import type { RunBindings } from '../run-bindings/index.ts';
import type { HitlService } from './hitl-service.ts';

/**
 * Longer than any card may wait (7 days), and the largest delay a Node timer takes: the card's own
 * `timeoutSec` decides, never the tool timeout.
 */
export const WAIT_FOR_USER_TIMEOUT_MS = 2_147_483_647;

const CHOICE_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    label: { type: 'string' },
    description: { type: 'string' },
    impact: { type: 'string', description: 'Required: what picking it does.' },
    recommended: { type: 'boolean' },
  },
};

/**
 * What the model reads when the card is resolved.
 *
 * @example
 * resultText(card, { status: 'answered', answer: { type: 'choice', choice_id: 'md' }, … });
 * // 'The user chose "md" (Markdown).'
 */
export function resultText(card: HitlCard, resolution: HitlResolvedPayload): string {
  const routed =
    resolution.route === undefined
      ? ''
      : ` (they typed ${JSON.stringify(resolution.free_text ?? '')}; ${resolution.route.reason})`;
  switch (resolution.status) {
    case 'expired':
      return `No answer: ${resolution.reason ?? 'the card expired.'} Decide without the user's input, or ask again later.`;
    case 'cancelled':
      return 'No answer: the run was cancelled.';
    case 'superseded':
      return 'No answer: the user moved on to another request; stop working on this one.';
    case 'answered':
      break;
  }
  const answer = resolution.answer;
  switch (answer?.type) {
    case 'choice': {
      const choice = card.choices.find((item) => item.id === answer.choice_id);
      return `The user chose "${answer.choice_id}" (${choice?.label ?? answer.choice_id})${routed}.`;
    }
    case 'text':
      return `The user answered in their own words: ${answer.text}`;
    case 'confirm':
      return answer.confirmed
        ? `The user confirmed: yes${routed}.`
        : `The user declined${answer.reason === undefined ? '' : `: ${answer.reason}`}${routed}.`;
    case 'form':
      return `The user filled in the form: ${JSON.stringify(answer.values)}`;
    case undefined:
      return 'The user gave no answer.';
  }
}

/**
 * `ask_user`: the model asks the user a question on a card (spec §4.5) and waits for the answer.
 * A malformed card is not shown; the result says what to fix.
 *
 * @example
 * builder.addTool(askUserTool({ hitl, bindings }));
 */
export function askUserTool(options: { hitl: HitlService; bindings: RunBindings }): ToolHandler {
  return {
    name: 'ask_user',
    description:
      'Asks the user on a card and waits for the answer. When a request is ambiguous in a way that changes the result, ask before acting rather than guess. kind: "choice" (2+ choices, at most one recommended), "confirm" (yes/no), "input" (free text) or "form" (fields). allowFreeInput lets the user type another answer.',
    parameters: {
      type: 'object',
      properties: {
        question: { type: 'string' },
        kind: { type: 'string', enum: ['choice', 'input', 'confirm', 'form'] },
        choices: { type: 'array', items: CHOICE_SCHEMA },
        allowFreeInput: { type: 'boolean' },
        freeInputHint: { type: 'string' },
        timeoutSec: { type: ['integer', 'null'], description: 'Null waits.' },
        fields: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              type: {
                type: 'string',
                enum: ['text', 'textarea', 'number', 'select', 'multiselect', 'checkbox', 'date'],
              },
              label: { type: 'string' },
              description: { type: 'string' },
              required: { type: 'boolean' },
              options: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { value: { type: 'string' }, label: { type: 'string' } },
                },
              },
              min: { type: 'number' },
              max: { type: 'number' },
              minLength: { type: 'integer' },
              maxLength: { type: 'integer' },
              pattern: { type: 'string', description: 'A regular expression for the whole text.' },
              patternMessage: { type: 'string' },
            },
          },
        },
      },
      required: ['question', 'kind'],
    },
    mutating: false,
    timeoutMs: WAIT_FOR_USER_TIMEOUT_MS,
    async execute({ arguments: input, callId }, context) {
      const binding = options.bindings.get(context.sessionId);
      if (binding === undefined) {
        return {
          content: 'Error [INVALID_INPUT]: ask_user works inside a workbench conversation.',
          isError: true,
        };
      }
      const problems = cardDraftProblems(input);
      if (problems.length > 0) {
        return {
          content: `Error [INVALID_INPUT]: The card was not shown. Fix these and call ask_user again:\n${problems.map((problem) => `- ${problem.path}: ${problem.message}`).join('\n')}`,
          isError: true,
          metadata: { problems },
        };
      }
      const draft = input as HitlCardDraft;
      const resolution = await options.hitl.ask(binding, draft, { callId });
      const card: HitlCard = {
        id: resolution.card_id,
        run_id: binding.runId,
        question: draft.question,
        kind: draft.kind,
        choices: draft.choices ?? [],
        allowFreeInput: true,
        timeoutSec: draft.timeoutSec ?? null,
        created_at: '',
      };
      return {
        content: resultText(card, resolution),
        isError: resolution.status !== 'answered',
        metadata: {
          card_id: resolution.card_id,
          status: resolution.status,
          ...(resolution.route === undefined ? {} : { route: resolution.route }),
        },
      };
    },
  };
}
