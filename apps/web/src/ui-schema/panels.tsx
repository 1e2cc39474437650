import type { ReactElement } from 'react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { UiPanel } from '@youyou/contracts';
import { errorMessage } from '../api/index.ts';
import { useResolvedLanguage, useTranslation } from '../i18n/index.ts';
import { useServices } from '../services/index.ts';
import { CouldNotRender, UiDocumentView } from './ui-document-view.tsx';

export const PANELS_KEY = ['extension-panels'] as const;

/** The extension panels (right-column tabs), through TanStack Query. */
export function usePanels(): UseQueryResult<UiPanel[]> {
  const { api } = useServices();
  return useQuery({
    queryKey: PANELS_KEY,
    queryFn: async () => (await api.listPanels()).panels,
    // Extensions are installed and turned off elsewhere (Settings, the CLI): pick that up soon.
    refetchInterval: 30_000,
  });
}

/** A panel's title in the UI's language. */
export function usePanelTitle(): (panel: UiPanel) => string {
  const language = useResolvedLanguage();
  return (panel) => (language === 'zh-CN' ? panel.title['zh-CN'] : panel.title.en);
}

/** One extension panel as a right-column tab's content. */
export function PanelTab({ panelId }: { panelId: string }): ReactElement {
  const t = useTranslation();
  const panels = usePanels();
  if (panels.isError) return <CouldNotRender problems={[errorMessage(panels.error)]} />;
  const panel = panels.data?.find((item) => item.id === panelId);
  if (panel === undefined)
    return <p className="empty-state">{panels.isPending ? t('app.loading') : t('ui.panelGone')}</p>;
  return (
    <div className="ui-panel" data-testid="ui-panel" data-panel={panel.id}>
      <UiDocumentView
        key={panel.id}
        schema={panel.schema}
        data={panel.data}
        target={{ kind: 'panel', id: panel.id, source: panel.source }}
      />
    </div>
  );
}
