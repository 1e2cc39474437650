import { useEffect } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { useConversationList } from '../queries/index.ts';
import { useServices } from '../services/index.ts';

/**
 * The tab title says when the agent waits for the user: "(?) YouYou" while any listed
 * conversation has a card waiting; the time zone the browser is in goes to the server once, so
 * `current_time` answers in it.
 */
export function useQuestionTitle(): void {
  const t = useTranslation();
  const { api } = useServices();
  const list = useConversationList('');
  const waiting = (list.data?.pages ?? []).some((page) =>
    page.conversations.some((conversation) => conversation.waiting_for_user),
  );
  useEffect(() => {
    const base = t('app.name');
    document.title = waiting ? `${t('hitl.titleMarker')} ${base}` : base;
  }, [waiting, t]);
  // Once the first screen is drawn: reading the zone initialises Intl's locale data.
  useEffect(() => {
    const send = () => {
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (zone !== '') api.setTimeZone(zone).catch(() => undefined);
    };
    if (typeof requestIdleCallback !== 'function') return send();
    const idle = requestIdleCallback(send, { timeout: 2000 });
    return () => cancelIdleCallback(idle);
  }, [api]);
}
