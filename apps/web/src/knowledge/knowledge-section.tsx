import { useState, type ReactElement } from 'react';
import type { KnowledgeItem } from '@youyou/contracts';
import { useTranslation } from '../i18n/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { useProjects } from '../queries/index.ts';
import { useDocumentViewer } from './document-viewer-store.ts';
import { useKnowledge, useKnowledgeActions } from './knowledge-queries.ts';
import { ParsePolicyEditor } from './parse-policy-editor.tsx';
import './knowledge.css';

/**
 * Settings → Knowledge (spec §4.12 "设置中心展示每库索引状态"): a project's indexed uploads and
 * artifacts with their status (queued / parsing / indexed / failed and why), retry per item and a
 * rebuild of the whole project.
 */
export function KnowledgeSection(): ReactElement {
  const t = useTranslation();
  const projects = useProjects();
  const current = useNavigation((state) => state.projectId);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const projectId = chosen ?? current ?? projects.data?.[0]?.id ?? null;
  const knowledge = useKnowledge(projectId);
  const { retry, rebuild } = useKnowledgeActions(projectId);
  const openDocument = useDocumentViewer((state) => state.open);
  const items: KnowledgeItem[] = knowledge.data?.items ?? [];
  const counts = knowledge.data?.counts;
  return (
    <section aria-labelledby="settings-knowledge" className="knowledge-section">
      <h2 id="settings-knowledge">{t('settings.knowledge')}</h2>
      <p className="settings-hint">{t('knowledge.intro')}</p>
      <label>
        {t('knowledge.project')}{' '}
        <select
          value={projectId ?? ''}
          onChange={(event) => setChosen(event.target.value === '' ? undefined : event.target.value)}
          data-testid="knowledge-project"
        >
          {(projects.data ?? []).map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </select>
      </label>
      {counts !== undefined && (
        <p role="status" data-testid="knowledge-counts">
          {t('knowledge.counts', {
            indexed: counts.indexed,
            pending: counts.queued + counts.parsing,
            failed: counts.failed,
          })}
        </p>
      )}
      <div className="settings-actions">
        <button
          type="button"
          className="button"
          disabled={projectId === null || rebuild.isPending}
          onClick={() => rebuild.mutate(false)}
        >
          {t('knowledge.rebuild')}
        </button>
        <button
          type="button"
          className="button"
          disabled={projectId === null || rebuild.isPending || (counts?.failed ?? 0) === 0}
          onClick={() => rebuild.mutate(true)}
        >
          {t('knowledge.retryFailed')}
        </button>
      </div>
      {items.length === 0 ? (
        <p className="workbench-empty">{t('knowledge.empty')}</p>
      ) : (
        <table data-testid="knowledge-items">
          <thead>
            <tr>
              <th>{t('knowledge.document')}</th>
              <th>{t('knowledge.source')}</th>
              <th>{t('knowledge.status')}</th>
              <th>{t('knowledge.chunks')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id}>
                <td>
                  <button type="button" className="link-button" onClick={() => openDocument(item.id)}>
                    {item.title}
                  </button>
                </td>
                <td>{t(`knowledge.source.${item.source}`)}</td>
                <td className={`knowledge-status-${item.status}`}>
                  {t(`knowledge.status.${item.status}`)}
                  {item.error !== null && (
                    <span className="field-error">
                      {' '}
                      {t('knowledge.failedBecause', { reason: item.error.message })}
                    </span>
                  )}
                </td>
                <td>{item.chunk_count}</td>
                <td>
                  <button
                    type="button"
                    className="button"
                    disabled={item.status === 'queued' || item.status === 'parsing'}
                    onClick={() => retry.mutate(item.id)}
                  >
                    {t('knowledge.retry')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {projectId !== null && <ParsePolicyEditor key={projectId} projectId={projectId} />}
    </section>
  );
}
