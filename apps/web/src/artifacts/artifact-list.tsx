import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useSyncExternalStore, type ReactElement } from 'react';
import type { Artifact } from '@youyou/contracts';
import { frameBatched } from '../conversation-state/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { FileIcon } from '../icons/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { formatSize } from '../parts/index.ts';
import { useServices } from '../services/index.ts';
import { useWorkbenchUi } from '../workbench-ui/index.ts';
import { ArtifactViewer } from './artifact-viewer.tsx';
import { lastLiveArtifact } from './live-artifact.ts';

const KIND_LABELS: Record<Artifact['kind'], string> = {
  markdown: 'Markdown',
  code: 'Code',
  html: 'HTML',
  svg: 'SVG',
  mermaid: 'Mermaid',
  csv: 'CSV',
  json: 'JSON',
  text: 'Text',
  upload: 'Upload',
};

/**
 * The Artifacts tab (spec §4.4): what the agent wrote and what the person uploaded, newest first,
 * from `GET /conversations/:id/artifacts`; refreshed whenever the conversation's events create or
 * change one; an open artifact shows in the viewer, and one the agent writes while the tab is open
 * opens there.
 */
export function ArtifactsTab(): ReactElement {
  const t = useTranslation();
  const { api, live } = useServices();
  const queryClient = useQueryClient();
  const conversationId = useNavigation((state) => state.conversationId);
  const chosenId = useWorkbenchUi((state) => state.artifactId);
  const chosenIn = useWorkbenchUi((state) => state.artifactConversationId);
  const openArtifact = useWorkbenchUi((state) => state.openArtifact);
  const followArtifact = useWorkbenchUi((state) => state.followArtifact);
  // An artifact opened in another conversation is not this one's: this one shows its list.
  const openId = chosenIn === conversationId ? chosenId : undefined;
  const store = live.store(conversationId ?? '');
  const snapshot = useSyncExternalStore(frameBatched(store.subscribe), store.getSnapshot);
  const written = useMemo(() => lastLiveArtifact(snapshot.runs), [snapshot.runs]);
  useEffect(() => {
    if (written !== undefined) followArtifact(written.artifactId, written.mark);
  }, [written, followArtifact]);
  // What the conversation's events say about artifacts: a change here means the list changed.
  const signature = useMemo(() => {
    const marks: string[] = [];
    for (const run of snapshot.runs) {
      for (const part of [...run.user.parts, ...run.assistant.parts]) {
        if (part.type === 'artifact') marks.push(`${part.artifact_id}@${String(part.version)}`);
        if (part.type === 'attachment') marks.push(part.upload_id);
      }
      if (run.assistant.status !== 'pending' && run.assistant.status !== 'streaming') marks.push(run.run.id);
    }
    return marks.join(',');
  }, [snapshot.runs]);
  const list = useQuery({
    queryKey: ['artifacts', conversationId],
    queryFn: () => api.listArtifacts(conversationId ?? ''),
    enabled: conversationId !== undefined,
  });
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: ['artifacts', conversationId] });
    void queryClient.invalidateQueries({ queryKey: ['artifact'] });
  }, [signature, conversationId, queryClient]);
  // Keyed: another artifact starts on its rendered view, not on the last one's diff.
  if (openId !== undefined) return <ArtifactViewer key={openId} artifactId={openId} />;
  const items = list.data ?? [];
  if (list.isError) return <p className="field-error">{String(list.error)}</p>;
  if (items.length === 0) return <p className="empty-state">{t('workbench.artifactsEmpty')}</p>;
  return (
    <ul className="artifact-list" data-testid="artifact-list">
      {items.map((item) => (
        <li key={item.id}>
          <button
            type="button"
            className="artifact-entry"
            onClick={() => openArtifact(item.id)}
            aria-label={t('workbench.open', { name: item.title })}
          >
            <FileIcon size={16} />
            <span className="artifact-title">{item.title}</span>
            <span className="artifact-kind">
              {item.kind === 'code' && item.language !== null ? item.language : KIND_LABELS[item.kind]}
            </span>
            {item.kind !== 'upload' && <span className="artifact-version">v{item.version}</span>}
            <span className="attachment-size">{formatSize(item.size)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
