import type { Kysely } from 'kysely';
import type { DialectName, Schema } from '../database/index.ts';
import type { ConversationMessage } from '@youyou/contracts';
import type { ConversationSummary } from '../storage/index.ts';
import { MAX_MESSAGE_PAGE, queryConversation } from './conversation-query.ts';

/** The JSON export's format marker. */
export const CONVERSATION_EXPORT_FORMAT = 'youyou.conversation';

/** What `GET /api/conversations/:id/export?format=json` downloads: the active branch, whole. */
export interface ConversationExport {
  format: typeof CONVERSATION_EXPORT_FORMAT;
  version: 1;
  exported_at: string;
  conversation: ConversationSummary;
  messages: ConversationMessage[];
}

/**
 * The whole active branch of a conversation, oldest first (every page of the Query), with the
 * conversation as listings show it.
 *
 * @example
 * const file = await exportConversation(db, 'sqlite', summary);
 */
export async function exportConversation(
  db: Kysely<Schema>,
  dialect: DialectName,
  conversation: ConversationSummary,
): Promise<ConversationExport> {
  let messages: ConversationMessage[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await queryConversation(db, dialect, conversation.id, {
      limit: MAX_MESSAGE_PAGE,
      ...(before === undefined ? {} : { before }),
    });
    messages = [...page.messages, ...messages];
    if (page.earlier_cursor === undefined || page.messages.length === 0) break;
    before = page.earlier_cursor;
  }
  return {
    format: CONVERSATION_EXPORT_FORMAT,
    version: 1,
    exported_at: new Date().toISOString(),
    conversation,
    messages,
  };
}

function fence(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${language}\n${text}\n${ticks}`;
}

/** A card's options and what became of it, as Markdown quote lines. */
function hitlLines(
  part: Extract<ConversationExport['messages'][number]['parts'][number], { type: 'hitl' }>,
): string[] {
  const lines = part.card.choices.map(
    (choice, index) =>
      `> ${index + 1}. ${choice.label}${choice.recommended === true ? ' (recommended)' : ''} — ${choice.impact}`,
  );
  const resolution = part.resolution;
  const answer = resolution?.answer;
  const outcome =
    resolution === undefined
      ? part.card_status
      : answer?.type === 'choice'
        ? `chose ${answer.choice_id}`
        : answer?.type === 'text'
          ? `answered: ${answer.text}`
          : answer?.type === 'confirm'
            ? answer.confirmed
              ? 'yes'
              : `no${answer.reason === undefined ? '' : `: ${answer.reason}`}`
            : answer?.type === 'form'
              ? `form: ${JSON.stringify(answer.values)}`
              : resolution.status;
  lines.push(
    `> _${outcome}${resolution?.free_text === undefined ? '' : ` (typed “${resolution.free_text}”)`}_`,
  );
  return lines;
}

/**
 * The export as Markdown: a heading per message, text as written, reasoning and tool calls in
 * collapsible blocks, errors and attachments named.
 *
 * @example
 * const markdown = conversationMarkdown(await exportConversation(db, dialect, summary));
 */
export function conversationMarkdown(exported: ConversationExport): string {
  const lines: string[] = [`# ${exported.conversation.title || 'Untitled conversation'}`, ''];
  lines.push(`_Exported ${exported.exported_at} from YouYou._`, '');
  for (const message of exported.messages) {
    const who =
      message.role === 'user' ? 'You' : `Assistant${message.model_id ? ` (${message.model_id})` : ''}`;
    lines.push(`## ${who}`, '');
    for (const part of message.parts) {
      switch (part.type) {
        case 'text':
          lines.push(part.text, '');
          break;
        case 'thinking':
          lines.push('<details><summary>Reasoning</summary>', '', part.text, '', '</details>', '');
          break;
        case 'tool_call':
          lines.push(
            `<details><summary>Tool call: ${part.tool_name}</summary>`,
            '',
            fence(part.arguments, 'json'),
            '',
            '</details>',
            '',
          );
          break;
        case 'tool_result':
          lines.push(
            `<details><summary>Tool result: ${part.tool_name}${part.is_error ? ' (error)' : ''}</summary>`,
            '',
            fence(part.output),
            '',
            '</details>',
            '',
          );
          break;
        case 'error':
          lines.push(`> **Error ${part.error.code}:** ${part.error.message}`, '');
          break;
        case 'attachment':
          lines.push(`📎 ${part.name} (${part.media_type}, ${part.size} bytes)`, '');
          break;
        case 'skill':
          lines.push(`\`/${part.name}${part.arguments ? ` ${part.arguments}` : ''}\``, '');
          break;
        case 'artifact':
          lines.push(
            `🗎 Artifact “${part.title}” (${part.kind}, version ${part.version}, ${part.change})`,
            '',
          );
          break;
        case 'hitl':
          lines.push(`> **Question:** ${part.card.question}`, ...hitlLines(part), '');
          break;
        case 'reference':
          lines.push(`@ ${part.label} (${part.kind} ${part.id})`, '');
          break;
        case 'card':
          // The UI document as posted: a reader of the export sees what the card held.
          lines.push(
            `<details><summary>Card${part.title === undefined ? '' : `: ${part.title}`} (${part.source})</summary>`,
            '',
            fence(JSON.stringify(part.schema, null, 2), 'json'),
            '',
            '</details>',
            '',
          );
          break;
      }
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
