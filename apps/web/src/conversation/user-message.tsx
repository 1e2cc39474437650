import { memo, useState, type ReactElement } from 'react';
import type { ConversationMessage } from '@youyou/contracts';
import { useTranslation } from '../i18n/index.ts';
import { CheckIcon, CopyIcon, EditIcon } from '../icons/index.ts';
import { useCopy } from '../markdown/index.ts';
import { Parts } from '../parts/index.ts';
import { BranchSwitcher } from './branch-switcher.tsx';
import { useConversationUi } from './conversation-ui-store.ts';

export function textOfMessage(message: ConversationMessage): string {
  return message.parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n\n');
}

export interface UserMessageProps {
  message: ConversationMessage;
  canEdit: boolean;
  onEdit: (text: string) => void;
  onSelectBranch: (messageId: string) => void;
}

/** The person's message: a bubble with copy, edit-and-branch and the branch switcher. */
export const UserMessage = memo(function UserMessage({
  message,
  canEdit,
  onEdit,
  onSelectBranch,
}: UserMessageProps): ReactElement {
  const t = useTranslation();
  const { copied, copy } = useCopy();
  const editing = useConversationUi((state) => state.editingMessageId === message.id);
  const setEditing = useConversationUi((state) => state.setEditing);
  const text = textOfMessage(message);
  const [draft, setDraft] = useState(text);

  return (
    <div className="message user-message" data-message-id={message.id} data-role="user">
      {editing ? (
        <form
          className="edit-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (draft.trim() === '') return;
            setEditing(undefined);
            onEdit(draft);
          }}
        >
          <textarea
            className="input"
            aria-label={t('conversation.edit')}
            value={draft}
            autoFocus
            rows={Math.min(10, draft.split('\n').length + 1)}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setEditing(undefined);
            }}
          />
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => setEditing(undefined)}>
              {t('conversation.editCancel')}
            </button>
            <button type="submit" className="button primary" disabled={draft.trim() === ''}>
              {t('conversation.editSend')}
            </button>
          </div>
        </form>
      ) : (
        <div className="user-bubble">
          <Parts parts={message.parts} />
        </div>
      )}
      {!editing && (
        <div className="message-actions user-actions">
          <BranchSwitcher siblings={message.siblings} t={t} onSelect={onSelectBranch} />
          <button
            type="button"
            className="icon-button"
            aria-label={copied ? t('conversation.copied') : t('conversation.copy')}
            onClick={() => copy(text)}
          >
            {copied ? <CheckIcon size={15} /> : <CopyIcon size={15} />}
          </button>
          {canEdit && (
            <button
              type="button"
              className="icon-button"
              aria-label={t('conversation.edit')}
              onClick={() => {
                setDraft(text);
                setEditing(message.id);
              }}
            >
              <EditIcon size={15} />
            </button>
          )}
        </div>
      )}
    </div>
  );
});
