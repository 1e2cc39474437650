import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useWorkbenchEvents } from '../customise/customise-queries.ts';
import { lazy, Suspense, useEffect, useState, type ReactElement } from 'react';
import { useQuestionTitle } from '../hitl/index.ts';
import { isApiError } from '../api/index.ts';
import { ConversationView } from '../conversation/index.ts';
import { useResolvedLanguage, useTranslation } from '../i18n/index.ts';
import { AppShell, isLeftOpen, useLayout } from '../layout/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { applyAppearance, resolveTheme, usePreferences, useSystemDark } from '../preferences/index.ts';
import { ProjectNav } from '../project-nav/index.ts';
import { ErrorBoundary } from '../ui/index.ts';
import { useFirstScreenDrawn } from '../first-screen/index.ts';
import { ServicesProvider, useServices, type AppServices } from '../services/index.ts';

/** Puts theme, density, font size and language on <html> whenever they change. */
function useAppearance(): void {
  const theme = usePreferences((state) => state.theme);
  const density = usePreferences((state) => state.density);
  const fontSize = usePreferences((state) => state.fontSize);
  const accent = usePreferences((state) => state.accent);
  const systemDark = useSystemDark();
  const language = useResolvedLanguage();
  useEffect(() => {
    applyAppearance(document.documentElement, {
      theme: resolveTheme(theme, systemDark),
      density,
      fontSize,
      language,
      accent,
    });
  }, [theme, density, fontSize, systemDark, language, accent]);
}

/**
 * Global shortcuts: Ctrl/⌘+B toggles the sidebar, Ctrl/⌘+K searches conversations,
 * Ctrl/⌘+Shift+O starts a new conversation.
 */
function useShortcuts(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      if (event.shiftKey) {
        if (event.key.toLowerCase() === 'o') {
          event.preventDefault();
          useNavigation.getState().openConversation(undefined);
          setTimeout(() => document.getElementById('composer-input')?.focus(), 0);
        }
        return;
      }
      if (event.key === 'b') {
        event.preventDefault();
        useLayout.getState().toggleLeft();
      } else if (event.key === 'k') {
        event.preventDefault();
        if (!isLeftOpen(useLayout.getState())) useLayout.getState().toggleLeft();
        setTimeout(() => document.getElementById('conversation-search')?.focus(), 0);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

// The right column (documents, artifacts, agents, plan, panels) is a chunk of its own: the first
// render of a conversation does not wait for it. It is fetched once the first screen is drawn, so
// a column opened later shows at once.
const loadWorkbench = () => import('../workbench/workbench.tsx');
const Workbench = lazy(() => loadWorkbench().then((module) => ({ default: module.Workbench })));

// The agent tracker (its dialog, or the whole of its own window) is a chunk of its own too.
const TrackerDialog = lazy(() =>
  import('../agent-tracker/agent-tracker.tsx').then((module) => ({ default: module.TrackerDialog })),
);
const TrackerWindow = lazy(() =>
  import('../agent-tracker/agent-tracker.tsx').then((module) => ({ default: module.TrackerWindow })),
);

// Settings load when first opened: they are not part of the app shell's first download.
const SettingsDialog = lazy(() =>
  import('../settings/index.ts').then((module) => ({ default: module.SettingsDialog })),
);

function LazySettings(): ReactElement | null {
  const open = useNavigation((state) => state.settings !== undefined);
  // Once opened it stays mounted, so closing it is the native dialog's close (focus goes back).
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <SettingsDialog />
    </Suspense>
  );
}

function Gate({ children }: { children: ReactElement }): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  // The health check also proves the session cookie: a 401 means "open the login URL".
  const health = useQuery({
    queryKey: ['health'],
    queryFn: () => api.listProjects(),
    retry: false,
    staleTime: Infinity,
  });
  if (health.isPending)
    return (
      <div className="app-loading" role="status">
        {t('app.loading')}
      </div>
    );
  if (health.isError) {
    const unauthorized = isApiError(health.error) && health.error.status === 401;
    return (
      <div className="app-gate" role="alert">
        <h1>{unauthorized ? t('auth.title') : t('auth.unreachable')}</h1>
        {unauthorized && <p>{t('auth.body')}</p>}
        <button type="button" className="button" onClick={() => void health.refetch()}>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  return children;
}

/** A column that fails to render shows why, with a retry; the other columns keep working. */
function Guarded({ children }: { children: ReactElement }): ReactElement {
  const t = useTranslation();
  return (
    <ErrorBoundary
      fallback={(error, retry) => (
        <div className="empty-state" role="alert">
          <p>{t('common.renderFailed', { message: error.message })}</p>
          <button type="button" className="button" onClick={retry}>
            {t('common.retry')}
          </button>
        </div>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}

function Workspace(): ReactElement {
  const t = useTranslation();
  const drawn = useFirstScreenDrawn();
  useEffect(() => {
    if (drawn) void loadWorkbench();
  }, [drawn]);
  useShortcuts();
  useQuestionTitle();
  useWorkbenchEvents();
  return (
    <>
      <a
        className="skip-link"
        href="#composer-input"
        onClick={(event) => {
          // The hash is the router's: move focus without navigating.
          event.preventDefault();
          document.getElementById('composer-input')?.focus();
        }}
      >
        {t('app.skipToComposer')}
      </a>
      <AppShell
        left={(collapsed) => (
          <Guarded>
            <ProjectNav collapsed={collapsed} />
          </Guarded>
        )}
        middle={
          <Guarded>
            <ConversationView />
          </Guarded>
        }
        right={
          <Guarded>
            <Suspense fallback={null}>
              <Workbench />
            </Suspense>
          </Guarded>
        }
        overlay={
          <>
            <LazySettings />
            <Guarded>
              <Suspense fallback={null}>
                <TrackerDialog />
              </Suspense>
            </Guarded>
          </>
        }
      />
    </>
  );
}

/** The whole workbench UI, given its services (tests pass their own). */
export function App({
  services,
  tracker,
}: {
  services: AppServices;
  /** Set in the tracker's own window: it shows the tracker of this conversation only. */
  tracker?: { conversationId: string; runId?: string };
}): ReactElement {
  useAppearance();
  return (
    <QueryClientProvider client={services.queryClient}>
      <ServicesProvider services={services}>
        <Gate>
          {tracker === undefined ? (
            <Workspace />
          ) : (
            <Suspense fallback={null}>
              <TrackerWindow
                conversationId={tracker.conversationId}
                {...(tracker.runId === undefined ? {} : { runId: tracker.runId })}
              />
            </Suspense>
          )}
        </Gate>
      </ServicesProvider>
    </QueryClientProvider>
  );
}
