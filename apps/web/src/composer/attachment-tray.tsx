import type { ReactElement } from 'react';
import type { KnowledgeScope } from '@youyou/contracts';
import { DocumentStatus } from '../documents/index.ts';
import type { Translate } from '../i18n/index.ts';
import { CloseIcon, FileIcon } from '../icons/index.ts';
import { formatSize } from '../parts/index.ts';
import type { PendingAttachment } from './composer-store.ts';

/** The files about to be sent: image previews, names and sizes, upload state, inline errors. */
export function AttachmentTray({
  attachments,
  t,
  unsupportedReason,
  onRemove,
  onScope,
}: {
  attachments: readonly PendingAttachment[];
  t: Translate;
  /** Why the chosen model cannot take this file (it is marked, and sending waits), if it cannot. */
  unsupportedReason?: (attachment: PendingAttachment) => string | undefined;
  onRemove: (localId: string) => void;
  /** Set in a project conversation: keeps a file to the conversation, or puts it in the project's knowledge. */
  onScope?: (localId: string, scope: KnowledgeScope) => void;
}): ReactElement | null {
  if (attachments.length === 0) return null;
  return (
    <ul className="attachment-tray" aria-label={t('composer.attach')}>
      {attachments.map((item) => {
        const unsupported = unsupportedReason?.(item);
        return (
          <li
            key={item.localId}
            className={`pending-attachment ${item.status}${unsupported === undefined ? '' : ' unsupported'}`}
          >
            {item.previewUrl !== undefined ? (
              <img src={item.previewUrl} alt="" className="attachment-preview" />
            ) : (
              <FileIcon size={18} />
            )}
            <span className="pending-text">
              <span className="attachment-name">{item.name}</span>
              <span className="attachment-size">
                {item.status === 'uploading' ? t('composer.uploading') : formatSize(item.size)}
              </span>
              {item.error !== undefined && (
                <span className="field-error" role="alert">
                  {item.error}
                </span>
              )}
              {item.upload !== undefined && <DocumentStatus uploadId={item.upload.id} />}
              {onScope !== undefined && !item.mediaType.startsWith('image/') && item.status !== 'error' && (
                <label className="attachment-scope">
                  <input
                    type="checkbox"
                    checked={item.knowledgeScope === 'conversation'}
                    onChange={(event) =>
                      onScope(item.localId, event.target.checked ? 'conversation' : 'project')
                    }
                    data-testid="attachment-scope"
                  />
                  {t('composer.keepToConversation')}
                </label>
              )}
              {unsupported !== undefined && (
                <span className="field-error" role="alert" data-testid="attachment-unsupported">
                  {unsupported}
                </span>
              )}
            </span>
            {item.status === 'uploading' && <span className="spinner" aria-hidden="true" />}
            <button
              type="button"
              className="icon-button"
              aria-label={t('composer.removeAttachment', { name: item.name })}
              onClick={() => onRemove(item.localId)}
            >
              <CloseIcon size={14} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
