import { memo, useState, type ReactElement } from 'react';
import type { Conversation, Project } from '@youyou/contracts';
import type { Translate } from '../i18n/index.ts';
import { MoreIcon } from '../icons/index.ts';
import { Menu } from '../ui/index.ts';

export interface ConversationItemProps {
  conversation: Conversation;
  selected: boolean;
  running: boolean;
  unread: boolean;
  t: Translate;
  onOpen: (id: string) => void;
  onRename: (id: string, title: string) => void;
  onDelete: (conversation: Conversation) => void;
  /** Where the conversation can move (its own project is left out of the menu). */
  projects: readonly Project[];
  onMove: (id: string, projectId: string | null) => void;
  /** Downloads the conversation as an archive. */
  onExport: (id: string) => void;
  /** Shows the conversation's usage. */
  onUsage: (conversation: Conversation) => void;
}

/** One row of the conversation list: title, a waiting-for-you mark, running spinner or unread dot, and its menu. */
export const ConversationItem = memo(function ConversationItem(props: ConversationItemProps): ReactElement {
  const { conversation, selected, running, unread, t } = props;
  const [editing, setEditing] = useState(false);
  const title = conversation.title === '' ? t('nav.untitled') : conversation.title;

  if (editing) {
    return (
      <li className="conversation-item editing">
        <input
          className="input"
          aria-label={t('nav.rename')}
          defaultValue={conversation.title}
          autoFocus
          onFocus={(event) => event.currentTarget.select()}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              const value = event.currentTarget.value.trim();
              setEditing(false);
              if (value !== '' && value !== conversation.title) props.onRename(conversation.id, value);
            } else if (event.key === 'Escape') setEditing(false);
          }}
          onBlur={(event) => {
            const value = event.currentTarget.value.trim();
            setEditing(false);
            if (value !== '' && value !== conversation.title) props.onRename(conversation.id, value);
          }}
        />
      </li>
    );
  }
  return (
    <li
      className={`conversation-item${selected ? ' selected' : ''}${unread ? ' unread' : ''}${conversation.waiting_for_user ? ' waiting' : ''}`}
    >
      <a
        href={`#/c/${encodeURIComponent(conversation.id)}`}
        className="conversation-link"
        aria-current={selected ? 'page' : undefined}
        onClick={(event) => {
          event.preventDefault();
          props.onOpen(conversation.id);
        }}
        onDoubleClick={() => setEditing(true)}
        onKeyDown={(event) => {
          if (event.key === 'F2') setEditing(true);
        }}
      >
        <span className="conversation-title">{title}</span>
        {conversation.waiting_for_user ? (
          <span
            className="waiting-mark"
            role="status"
            aria-label={t('hitl.waiting')}
            title={t('hitl.waiting')}
            data-testid="waiting-indicator"
          >
            ?
          </span>
        ) : running ? (
          <span
            className="spinner"
            role="status"
            aria-label={t('nav.running')}
            data-testid="running-indicator"
          />
        ) : unread ? (
          <span className="unread-dot" role="status" aria-label={t('nav.unread')} />
        ) : null}
      </a>
      <Menu
        label={t('nav.more', { title })}
        icon={<MoreIcon size={16} />}
        items={[
          { label: t('nav.rename'), onSelect: () => setEditing(true) },
          ...props.projects
            .filter((project) => project.id !== conversation.project_id)
            .map((project) => ({
              label: t('nav.moveTo', { name: project.name }),
              onSelect: () => props.onMove(conversation.id, project.id),
            })),
          ...(conversation.project_id === null
            ? []
            : [
                {
                  label: t('nav.moveTo', { name: t('nav.ungrouped') }),
                  onSelect: () => props.onMove(conversation.id, null),
                },
              ]),
          { label: t('usage.conversation'), onSelect: () => props.onUsage(conversation) },
          { label: t('archive.export'), onSelect: () => props.onExport(conversation.id) },
          { label: t('nav.delete'), onSelect: () => props.onDelete(conversation), danger: true },
        ]}
      />
    </li>
  );
});
