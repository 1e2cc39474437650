import type { LiveConversations } from '../conversation-state/index.ts';
import { browserLanguage, translate } from '../i18n/index.ts';
import { usePreferences } from '../preferences/index.ts';

/**
 * The opt-in browser notification (Settings → Behaviour): when a card is raised while this tab is
 * in the background, one notification with the question; clicking it brings the tab back. Nothing
 * is shown when the person is looking, or has not turned it on, or the browser refuses.
 *
 * @example
 * const stop = watchQuestions(live);
 */
export function watchQuestions(live: LiveConversations): () => void {
  return live.onEvent((_conversationId, event) => {
    if (event.type !== 'hitl.request') return;
    if (!usePreferences.getState().notifyQuestions) return;
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    if (typeof document !== 'undefined' && document.visibilityState === 'visible') return;
    const language = usePreferences.getState().language ?? browserLanguage(navigator.languages);
    const notification = new Notification(translate(language, 'hitl.notificationTitle'), {
      body: event.payload.card.question,
      tag: event.payload.card.id,
    });
    notification.onclick = () => {
      globalThis.focus();
      notification.close();
    };
  });
}
