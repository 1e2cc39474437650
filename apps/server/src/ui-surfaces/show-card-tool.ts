import { randomUUID } from 'node:crypto';
import type { ToolHandler } from '@youyou/agent';
import { uiDocumentProblems } from '@youyou/contracts';
import type { RunBinding, RunBindings } from '../tools/index.ts';

/** What `postCard` shows. */
export interface CardToPost {
  /** Who provides the card: `builtin`, `extension:<id>`, … */
  source: string;
  /** The UI document, checked by the caller (`uiDocumentProblems`). */
  schema: unknown;
  title?: string;
  /** The tool call that posts it. */
  callId?: string;
}

/**
 * Puts a UI card into the answer a run is writing (a `card.posted` event; the projection makes it
 * a `card` part). For tools — built in or an extension's — that answer with a card.
 *
 * @example
 * const cardId = await postCard(binding, { source: 'extension:weather', title: 'Oslo', schema, callId });
 */
export async function postCard(binding: RunBinding, card: CardToPost): Promise<string> {
  const cardId = randomUUID();
  await binding.append([
    {
      run_id: binding.messageRunId,
      type: 'card.posted',
      payload: {
        message_id: binding.messageRunId,
        card_id: cardId,
        source: card.source,
        ...(card.title === undefined ? {} : { title: card.title.slice(0, 200) }),
        ...(card.callId === undefined ? {} : { call_id: card.callId }),
        schema: card.schema,
      },
    },
  ]);
  return cardId;
}

/**
 * `show_card`: the model shows structured results (a table of values, a short list, a chart) as a
 * card in its answer, written in the UI-schema vocabulary (docs/ui-schema.md). A document that
 * does not fit the vocabulary is not shown; the result lists what to fix.
 *
 * @example
 * toolset.register([showCardTool({ bindings })], { internal: true });
 */
export function showCardTool(options: { bindings: RunBindings }): ToolHandler {
  return {
    name: 'show_card',
    description:
      'Shows a card in your answer, drawn from a UI document: {"version":1,"root":<node>,"data":{…}}. Nodes: {"component":"Text","text":"…","variant":"h3"}, {"component":"Markdown","text":"…"}, {"component":"Column"|"Row","children":[…]}, {"component":"Section","title":"…","children":[…]}, {"component":"KeyValue","items":[{"label":"…","value":"…"}]}, {"component":"List","children":[…]}, {"component":"ChartLite","variant":"bar","points":[{"label":"…","value":1}]}, {"component":"DocRef","title":"…","target":{"artifact":"<id>"}|{"url":"https://…"}}. Strings may be {"path":"/key"} bindings into data. For results that read better as a card.',
    parameters: {
      type: 'object',
      properties: {
        title: { type: 'string', description: 'Shown above the card.' },
        schema: { type: 'object', description: 'The UI document.' },
      },
      required: ['schema'],
      additionalProperties: false,
    },
    mutating: false,
    async execute({ arguments: input, callId }, context) {
      const binding = options.bindings.get(context.sessionId);
      if (binding === undefined) {
        return {
          content: 'Error [INVALID_INPUT]: show_card works inside a workbench conversation.',
          isError: true,
        };
      }
      const problems = uiDocumentProblems(input['schema']);
      if (problems.length > 0) {
        return {
          content: `Error [INVALID_INPUT]: The card was not shown. Fix these and call show_card again:\n${problems.map((problem) => `- ${problem.path}: ${problem.message}`).join('\n')}`,
          isError: true,
          metadata: { problems },
        };
      }
      const title = typeof input['title'] === 'string' ? input['title'] : undefined;
      const cardId = await postCard(binding, {
        source: 'builtin',
        schema: input['schema'],
        callId,
        ...(title === undefined ? {} : { title }),
      });
      return { content: 'The card is shown to the user.', metadata: { card_id: cardId } };
    },
  };
}
