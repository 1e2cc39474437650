import type { ReactElement } from 'react';
import type { ArchiveImportPreview } from '@youyou/contracts';
import type { Translate } from '../i18n/index.ts';
import './archive.css';

/**
 * What an import will create, before anything is written: each new project (and, when its name is
 * taken here, the copy's name it comes in under), or the project it goes into; the conversations
 * and memories. The person imports — as a copy when a name is taken — or cancels.
 */
export function ImportPreview(props: {
  preview: ArchiveImportPreview;
  busy: boolean;
  onImport: () => void;
  onCancel: () => void;
  t: Translate;
}): ReactElement {
  const { preview, busy, onImport, onCancel, t } = props;
  const copies = preview.projects.some((project) => project.name_taken);
  return (
    <div
      className="archive-preview"
      role="group"
      aria-labelledby="archive-preview-title"
      data-testid="archive-preview"
    >
      <h4 id="archive-preview-title">{t('archive.previewTitle')}</h4>
      <ul>
        {preview.target_project !== null && (
          <li>{t('archive.previewInto', { name: preview.target_project.name })}</li>
        )}
        {preview.projects.map((project) => (
          <li key={project.source_id} data-name-taken={project.name_taken}>
            {t('archive.previewProject', { name: project.import_name })}
            {project.name_taken && (
              <p className="archive-preview-warning" role="note">
                {t('archive.previewNameTaken', { name: project.name, copy: project.import_name })}
              </p>
            )}
          </li>
        ))}
        <li>
          {t('archive.previewConversations', { count: String(preview.conversations.length) })}
          {preview.conversations.length > 0 && (
            <span className="archive-preview-titles">
              {': '}
              {preview.conversations.map((conversation) => conversation.title).join(', ')}
            </span>
          )}
        </li>
        {preview.memories > 0 && <li>{t('archive.previewMemories', { count: String(preview.memories) })}</li>}
      </ul>
      <div className="archive-preview-actions">
        <button type="button" className="button primary" disabled={busy} onClick={onImport}>
          {copies ? t('archive.importAsCopy') : t('archive.importConfirm')}
        </button>
        <button type="button" className="button" disabled={busy} onClick={onCancel}>
          {t('archive.importCancel')}
        </button>
      </div>
    </div>
  );
}
