import type { ReactElement, ReactNode } from 'react';
import type { MessageSearchHit } from '@youyou/contracts';
import { useTranslation } from '../i18n/index.ts';
import { useMessageFocus, useNavigation } from '../navigation/index.ts';
import { useMessageSearch } from '../queries/index.ts';

/** The snippet with its matched stretches marked. */
function highlighted(hit: MessageSearchHit): ReactNode[] {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const { start, end } of [...hit.highlights].sort((a, b) => a.start - b.start)) {
    if (start < at || end <= start) continue;
    if (start > at) parts.push(hit.snippet.slice(at, start));
    parts.push(<mark key={start}>{hit.snippet.slice(start, end)}</mark>);
    at = end;
  }
  if (at < hit.snippet.length) parts.push(hit.snippet.slice(at));
  return parts;
}

/**
 * The sidebar search's second list: messages whose text matches, each a snippet with the match
 * marked, opening its conversation scrolled to the message.
 */
export function MessageHits({ search }: { search: string }): ReactElement | null {
  const t = useTranslation();
  const openConversation = useNavigation((state) => state.openConversation);
  const focus = useMessageFocus((state) => state.focus);
  const hits = useMessageSearch(search);
  if (!hits.isSuccess) return null;
  return (
    <section className="project-group message-hits" aria-label={t('nav.messages')}>
      <div className="group-label">{t('nav.messages')}</div>
      {hits.data.hits.length === 0 ? (
        <p className="empty-state">{t('nav.noMessageMatches', { query: search.trim() })}</p>
      ) : (
        <ul className="conversation-list">
          {hits.data.hits.map((hit) => (
            <li key={`${hit.conversation_id}/${hit.message_id}/${hit.role}`}>
              <a
                className="message-hit"
                href={`#/c/${encodeURIComponent(hit.conversation_id)}`}
                onClick={(event) => {
                  event.preventDefault();
                  focus(hit.conversation_id, hit.message_id);
                  openConversation(hit.conversation_id);
                }}
              >
                <span className="message-hit-title">
                  {hit.conversation_title === '' ? t('nav.untitled') : hit.conversation_title} ·{' '}
                  {t(hit.role === 'user' ? 'nav.hitUser' : 'nav.hitAssistant')}
                </span>
                <span className="message-hit-snippet">{highlighted(hit)}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
