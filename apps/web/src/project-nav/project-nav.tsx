import { useMutation } from '@tanstack/react-query';
import { useCallback, useMemo, useState, useSyncExternalStore, type ReactElement } from 'react';
import type { Conversation, Project } from '@youyou/contracts';
import { useServices } from '../services/index.ts';
import { CONVERSATIONS_KEY } from '../conversation-state/index.ts';
import { useTranslation } from '../i18n/index.ts';
import {
  ChatIcon,
  ChevronIcon,
  DownloadIcon,
  FolderIcon,
  ListIcon,
  PlusIcon,
  SearchIcon,
  SettingsIcon,
  SidebarIcon,
  TrashIcon,
  UserIcon,
} from '../icons/index.ts';
import { useLayout } from '../layout/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { PROJECTS_KEY, useConversationList, useProjects } from '../queries/index.ts';
import { ConfirmDialog } from '../ui/index.ts';
import { download } from '../archive/index.ts';
import { ProjectKnowledgeDialog } from '../knowledge/index.ts';
import { ConversationUsageDialog } from '../usage/index.ts';
import { ConversationItem } from './conversation-item.tsx';
import { MessageHits } from './message-hits.tsx';
import { NewProjectForm } from './new-project-form.tsx';
import { isUnread, useSeen } from './seen-store.ts';
import './project-nav.css';

const NO_PROJECTS: readonly Project[] = [];

/** How many recent conversations the collapsed rail shows as icons. */
const RAIL_CONVERSATIONS = 8;

/** The letter a project shows on the rail (its first letter or CJK character). */
function railInitial(name: string): string {
  return Array.from(name.trim())[0]?.toUpperCase() ?? '·';
}

type PendingDelete =
  { kind: 'conversation'; conversation: Conversation } | { kind: 'project'; project: Project };

/**
 * The left column (spec §4.4 ProjectNav): projects → conversations, newest first, title and message search,
 * running and unread marks; account and settings at the bottom; an icon rail when collapsed.
 */
export function ProjectNav({ collapsed }: { collapsed: boolean }): ReactElement {
  const t = useTranslation();
  const { api, queryClient, live } = useServices();
  const navigation = useNavigation();
  const toggleLeft = useLayout((state) => state.toggleLeft);
  const [search, setSearch] = useState('');
  const [creatingProject, setCreatingProject] = useState(false);
  const [closedProjects, setClosedProjects] = useState<ReadonlySet<string>>(new Set());
  const [pendingDelete, setPendingDelete] = useState<PendingDelete>();
  /** The project whose knowledge page is open. */
  const [knowledgeProject, setKnowledgeProject] = useState<Project>();
  const projects = useProjects();
  const list = useConversationList(search);
  const running = useSyncExternalStore(live.subscribe, live.getRunning);
  const seen = useSeen((state) => state.seen);

  const conversations = useMemo(
    () => list.data?.pages.flatMap((page) => page.conversations) ?? [],
    [list.data],
  );
  const byProject = useMemo(() => {
    const groups = new Map<string | null, Conversation[]>();
    for (const conversation of conversations) {
      const key = conversation.project_id;
      const group = groups.get(key) ?? [];
      group.push(conversation);
      groups.set(key, group);
    }
    return groups;
  }, [conversations]);

  const invalidate = (): void => {
    void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
  };
  // A new conversation is a fresh composer; the server creates it with the first message, so
  // the list never fills with empty ones and nothing typed can land in the previous one.
  const newConversation = (projectId: string | undefined): void => {
    navigation.selectProject(projectId);
    navigation.openConversation(undefined);
    setTimeout(() => document.getElementById('composer-input')?.focus(), 0);
  };
  // Opening a conversation enters its project: a new conversation started next lands there too.
  const openConversation = useCallback(
    (id: string): void => {
      const target = conversations.find((conversation) => conversation.id === id);
      navigation.selectProject(target?.project_id ?? undefined);
      navigation.openConversation(id);
    },
    [conversations, navigation],
  );
  const move = useMutation({
    mutationFn: ({ id, projectId }: { id: string; projectId: string | null }) =>
      api.updateConversation(id, { project_id: projectId }),
    onSuccess: (_result, { projectId }) => navigation.selectProject(projectId ?? undefined),
    onSettled: invalidate,
  });
  const rename = useMutation({
    mutationFn: ({ id, title }: { id: string; title: string }) => api.renameConversation(id, title),
    onSettled: invalidate,
  });
  const remove = useMutation({
    mutationFn: async (target: PendingDelete) => {
      if (target.kind === 'conversation') await api.deleteConversation(target.conversation.id);
      else await api.deleteProject(target.project.id);
    },
    onSuccess: (_result, target) => {
      if (target.kind === 'conversation' && navigation.conversationId === target.conversation.id) {
        navigation.openConversation(undefined);
      }
      if (target.kind === 'project') void queryClient.invalidateQueries({ queryKey: PROJECTS_KEY });
      invalidate();
    },
  });

  const isRunning = (conversation: Conversation): boolean =>
    running.has(conversation.id) || (conversation.in_flight_run_id ?? null) !== null;

  const [usageOf, setUsageOf] = useState<Conversation | undefined>(undefined);
  const exportConversation = useCallback(
    (id: string) => download(api.archiveUrl({ conversationId: id })),
    [api],
  );

  const renderConversations = (items: readonly Conversation[]): ReactElement => (
    <ul className="conversation-list" role="list">
      {items.map((conversation) => (
        <ConversationItem
          key={conversation.id}
          conversation={conversation}
          selected={conversation.id === navigation.conversationId}
          running={isRunning(conversation)}
          unread={conversation.id !== navigation.conversationId && isUnread(seen, conversation)}
          t={t}
          onOpen={openConversation}
          onRename={(id, title) => rename.mutate({ id, title })}
          projects={projects.data ?? NO_PROJECTS}
          onMove={(id, projectId) => move.mutate({ id, projectId })}
          onExport={exportConversation}
          onUsage={setUsageOf}
          onDelete={(target) => setPendingDelete({ kind: 'conversation', conversation: target })}
        />
      ))}
    </ul>
  );

  if (collapsed) {
    return (
      <nav className="project-nav rail" aria-label={t('nav.label')}>
        <button type="button" className="icon-button" aria-label={t('nav.expand')} onClick={toggleLeft}>
          <SidebarIcon />
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label={t('nav.newConversation')}
          onClick={() => newConversation(navigation.projectId)}
        >
          <PlusIcon />
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label={t('nav.search')}
          onClick={() => {
            toggleLeft();
            setTimeout(() => document.getElementById('conversation-search')?.focus(), 200);
          }}
        >
          <SearchIcon />
        </button>
        <ul className="rail-items" aria-label={t('nav.projects')}>
          {(projects.data ?? []).map((project) => (
            <li key={project.id}>
              <button
                type="button"
                className={`rail-item${project.id === navigation.projectId ? ' selected' : ''}`}
                title={project.name}
                aria-label={project.name}
                onClick={() => navigation.selectProject(project.id)}
              >
                {railInitial(project.name)}
              </button>
            </li>
          ))}
        </ul>
        <ul className="rail-items" aria-label={t('nav.recent')}>
          {conversations.slice(0, RAIL_CONVERSATIONS).map((conversation) => (
            <li key={conversation.id}>
              <button
                type="button"
                className={`rail-item conversation${conversation.id === navigation.conversationId ? ' selected' : ''}${isRunning(conversation) ? ' running' : ''}`}
                title={conversation.title ?? t('nav.untitled')}
                aria-label={conversation.title ?? t('nav.untitled')}
                onClick={() => navigation.openConversation(conversation.id)}
              >
                <ChatIcon size={16} />
              </button>
            </li>
          ))}
        </ul>
        <div className="rail-spacer" />
        {running.size > 0 && <span className="spinner" role="status" aria-label={t('nav.running')} />}
        <button
          type="button"
          className="icon-button"
          aria-label={t('nav.settings')}
          onClick={() => navigation.openSettings()}
        >
          <SettingsIcon />
        </button>
      </nav>
    );
  }

  const searching = search.trim() !== '';
  const projectList = projects.data ?? [];
  const ungrouped = searching ? conversations : (byProject.get(null) ?? []);
  const orphaned = searching
    ? []
    : conversations.filter(
        (conversation) =>
          conversation.project_id !== null &&
          !projectList.some((project) => project.id === conversation.project_id),
      );

  return (
    <nav className="project-nav" aria-label={t('nav.label')}>
      <div className="nav-header">
        <span className="brand">
          <ChatIcon size={18} /> {t('app.name')}
        </span>
        <button type="button" className="icon-button" aria-label={t('nav.collapse')} onClick={toggleLeft}>
          <SidebarIcon />
        </button>
      </div>
      <div className="nav-actions">
        <button
          type="button"
          className="button new-conversation"
          onClick={() => newConversation(navigation.projectId)}
        >
          <PlusIcon size={16} /> <span className="button-label">{t('nav.newConversation')}</span>
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label={t('nav.newProject')}
          onClick={() => setCreatingProject(true)}
        >
          <FolderIcon size={17} />
        </button>
      </div>
      <div className="nav-search">
        <SearchIcon size={15} />
        <input
          id="conversation-search"
          type="search"
          aria-label={t('nav.search')}
          placeholder={t('nav.search')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      {creatingProject && (
        <NewProjectForm
          onDone={(project) => {
            setCreatingProject(false);
            if (project !== undefined) navigation.selectProject(project.id);
          }}
        />
      )}
      <div className="nav-scroll">
        {!searching &&
          projectList.map((project) => {
            const open = !closedProjects.has(project.id);
            const items = byProject.get(project.id) ?? [];
            const selected = navigation.projectId === project.id;
            return (
              <section
                key={project.id}
                className={`project-group${selected ? ' selected' : ''}`}
                aria-label={project.name}
              >
                <div className="project-header">
                  <button
                    type="button"
                    className="project-toggle"
                    aria-expanded={open}
                    aria-label={t('nav.toggleProject', { name: project.name })}
                    onClick={() => {
                      setClosedProjects((current) => {
                        const next = new Set(current);
                        if (next.has(project.id)) next.delete(project.id);
                        else next.add(project.id);
                        return next;
                      });
                      navigation.selectProject(project.id);
                    }}
                  >
                    <ChevronIcon size={14} className={open ? 'chevron open' : 'chevron'} />
                    <FolderIcon size={15} />
                    <span className="project-name">{project.name}</span>
                  </button>
                  <button
                    type="button"
                    className="icon-button small"
                    aria-label={`${t('nav.newConversation')} · ${project.name}`}
                    onClick={() => {
                      newConversation(project.id);
                    }}
                  >
                    <PlusIcon size={15} />
                  </button>
                  <button
                    type="button"
                    className="icon-button small"
                    aria-label={`${t('knowledge.openProjectPage')} · ${project.name}`}
                    title={t('knowledge.openProjectPage')}
                    data-testid="open-project-knowledge"
                    onClick={() => setKnowledgeProject(project)}
                  >
                    <ListIcon size={15} />
                  </button>
                  <button
                    type="button"
                    className="icon-button small"
                    aria-label={`${t('archive.exportProject')} · ${project.name}`}
                    title={t('archive.exportProject')}
                    onClick={() => download(api.archiveUrl({ projectId: project.id }))}
                  >
                    <DownloadIcon size={15} />
                  </button>
                  <button
                    type="button"
                    className="icon-button small"
                    aria-label={`${t('nav.deleteProject')} · ${project.name}`}
                    onClick={() => setPendingDelete({ kind: 'project', project })}
                  >
                    <TrashIcon size={15} />
                  </button>
                </div>
                {open && items.length > 0 && renderConversations(items)}
              </section>
            );
          })}
        <section
          className="project-group"
          aria-label={searching ? t('nav.allConversations') : t('nav.ungrouped')}
        >
          {!searching && projectList.length > 0 && (
            <div className="group-label">
              <button
                type="button"
                className="project-toggle"
                onClick={() => navigation.selectProject(undefined)}
                aria-pressed={navigation.projectId === undefined}
              >
                {t('nav.ungrouped')}
              </button>
            </div>
          )}
          {renderConversations([...ungrouped, ...orphaned])}
          {list.isSuccess && conversations.length === 0 && (
            <p className="empty-state">
              {searching ? t('nav.noMatches', { query: search.trim() }) : t('nav.noConversations')}
            </p>
          )}
          {list.hasNextPage && (
            <button
              type="button"
              className="button ghost load-more"
              onClick={() => void list.fetchNextPage()}
            >
              {t('nav.loadMore')}
            </button>
          )}
        </section>
        {searching && <MessageHits search={search} />}
      </div>
      <div className="nav-footer">
        <span className="account">
          <UserIcon size={17} /> {t('nav.account')}
        </span>
        <button
          type="button"
          className="icon-button"
          aria-label={t('nav.settings')}
          onClick={() => navigation.openSettings()}
        >
          <SettingsIcon />
        </button>
      </div>
      <ConfirmDialog
        open={pendingDelete !== undefined}
        title={pendingDelete?.kind === 'project' ? t('nav.deleteProject') : t('nav.delete')}
        message={
          pendingDelete === undefined
            ? ''
            : pendingDelete.kind === 'project'
              ? t('nav.confirmDeleteProject', { name: pendingDelete.project.name })
              : t('nav.confirmDelete', {
                  title:
                    pendingDelete.conversation.title === ''
                      ? t('nav.untitled')
                      : pendingDelete.conversation.title,
                })
        }
        confirmLabel={t('nav.delete')}
        cancelLabel={t('nav.cancel')}
        danger
        onCancel={() => setPendingDelete(undefined)}
        onConfirm={() => {
          if (pendingDelete !== undefined) remove.mutate(pendingDelete);
          setPendingDelete(undefined);
        }}
      />
      {usageOf !== undefined && (
        <ConversationUsageDialog
          conversationId={usageOf.id}
          title={usageOf.title === '' ? t('nav.untitled') : usageOf.title}
          onClose={() => setUsageOf(undefined)}
        />
      )}
      {knowledgeProject !== undefined && (
        <ProjectKnowledgeDialog
          project={knowledgeProject}
          open
          onClose={() => setKnowledgeProject(undefined)}
        />
      )}
    </nav>
  );
}
