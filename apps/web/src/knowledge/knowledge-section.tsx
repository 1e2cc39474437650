import { useState, type ReactElement } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { useProjects } from '../queries/index.ts';
import { KnowledgeIndex } from './knowledge-index.tsx';
import { ParsePolicyEditor } from './parse-policy-editor.tsx';
import './knowledge.css';

/**
 * Settings → Knowledge (spec §4.12 "设置中心展示每库索引状态"): a project's knowledge index (its
 * items, status, retry and rebuild — the same view as the project's knowledge page) and its parse
 * policy.
 */
export function KnowledgeSection(): ReactElement {
  const t = useTranslation();
  const projects = useProjects();
  const current = useNavigation((state) => state.projectId);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const projectId = chosen ?? current ?? projects.data?.[0]?.id ?? null;
  return (
    <div className="settings-widget knowledge-section" data-widget="knowledge">
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
      <KnowledgeIndex projectId={projectId} />
      {projectId !== null && <ParsePolicyEditor key={projectId} projectId={projectId} />}
    </div>
  );
}
