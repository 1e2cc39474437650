import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createHttpClient } from './api/index.ts';
import { syncDocuments } from './documents/index.ts';
import { App } from './app/index.ts';
import { watchQuestions } from './hitl/index.ts';
import { startPreferencesSync } from './preferences-sync/index.ts';
import { conversationKey } from './conversation-state/index.ts';
import { createServices } from './services/index.ts';
import { holdUntilFirstScreen } from './first-screen/index.ts';
import { syncNavigationWithLocation, useNavigation } from './navigation/index.ts';
import { syncPlanboards } from './workbench/planboard-sync.ts';
import { syncMemoryOnCards } from './memory/memory-queries.ts';
import './theme/tokens.css';
import './theme/base.css';
import './app/app.css';

const services = createServices(createHttpClient());
// The tracker's own window (`#/tracker/…`) shows only the tracker; the workbench follows the hash.
// The tracker's code is a chunk of its own, loaded first only in that window.
const tracker = window.location.hash.startsWith('#/tracker/')
  ? (await import('./agent-tracker/agent-tracker.tsx')).parseTrackerHash(window.location.hash)
  : undefined;
if (tracker === undefined) {
  // What the workbench's first screen does not show is asked for once it is drawn (first-screen/).
  holdUntilFirstScreen();
  syncNavigationWithLocation(window);
  // The opened conversation's Query is asked for now, beside the session check, not after it.
  const opened = useNavigation.getState().conversationId;
  if (opened !== undefined) {
    void services.queryClient.prefetchQuery({
      queryKey: conversationKey(opened),
      queryFn: ({ signal }) => services.api.getConversation(opened, { signal }),
    });
  }
  // The visible conversation's stream follows the navigation; streams of running ones stay open.
  services.live.focus(useNavigation.getState().conversationId);
  useNavigation.subscribe((state) => services.live.focus(state.conversationId));
}
startPreferencesSync(services.api);
// The Plan and Todos tabs follow plan.update / todo.update; questions may notify (opt-in).
syncPlanboards(services.live, services.queryClient);
// Attachment chips follow document.status (queued → parsing → parsed / failed).
syncDocuments(services.live, services.queryClient);
watchQuestions(services.live);
// A memory candidate's card stores a memory when answered: the memory list follows hitl.resolved.
syncMemoryOnCards(services.live, services.queryClient);
window.addEventListener('pagehide', () => services.live.dispose());

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App services={services} {...(tracker === undefined ? {} : { tracker })} />
  </StrictMode>,
);
