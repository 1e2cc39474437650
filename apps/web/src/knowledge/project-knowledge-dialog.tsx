import type { ReactElement } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { CloseIcon } from '../icons/index.ts';
import { Dialog } from '../ui/index.ts';
import { KnowledgeIndex } from './knowledge-index.tsx';
import { KnowledgeSearch } from './knowledge-search.tsx';
import './knowledge.css';

/**
 * A project's knowledge page (spec §4.12 "知识按项目隔离，在项目页与设置中心可见"), opened from
 * the project in the left column: its documents and artifacts in the index with their status,
 * retry and rebuild (the same view as Settings → Knowledge), and a search over them with citations.
 */
export function ProjectKnowledgeDialog({
  project,
  open,
  onClose,
}: {
  project: { id: string; name: string };
  open: boolean;
  onClose: () => void;
}): ReactElement {
  const t = useTranslation();
  const title = t('knowledge.projectPage', { name: project.name });
  return (
    <Dialog open={open} title={title} onClose={onClose} className="project-knowledge-dialog">
      <header className="dialog-header">
        <h2>{title}</h2>
        <button type="button" className="icon-button" aria-label={t('knowledge.close')} onClick={onClose}>
          <CloseIcon />
        </button>
      </header>
      <p className="settings-hint">{t('knowledge.intro')}</p>
      {open && (
        <>
          <KnowledgeSearch projectId={project.id} onOpenDocument={onClose} />
          <KnowledgeIndex projectId={project.id} onOpenDocument={onClose} />
        </>
      )}
    </Dialog>
  );
}
