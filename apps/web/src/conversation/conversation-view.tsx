import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type ReactElement } from 'react';
import { errorMessage, isApiError } from '../api/index.ts';
import type { SendMessage } from '@youyou/contracts';
import { useServices } from '../services/index.ts';
import { Composer, type ComposerSubmission } from '../composer/index.ts';
import { CONVERSATIONS_KEY, frameBatched, type RunView } from '../conversation-state/index.ts';
import { NewConversationProfilePicker, ProfilePicker } from '../customise/profile-picker.tsx';
import { FirstRun } from '../first-run/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { PanelRightIcon } from '../icons/index.ts';
import { isRightOpen, useLayout } from '../layout/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { useSeen } from '../project-nav/index.ts';
import { useConversationQuery, useCreateConversation, useProviders } from '../queries/index.ts';
import { waitingCard } from '../hitl/index.ts';
import { useConversationActions } from './conversation-actions.ts';
import { MessageList } from './message-list.tsx';
import { useMarkFirstScreenDrawn } from '../first-screen/index.ts';
import './conversation.css';

function requestOf(submission: ComposerSubmission, extra: Partial<SendMessage> = {}): SendMessage {
  return {
    text: submission.text,
    ...(submission.attachments.length === 0 ? {} : { attachments: submission.attachments }),
    ...(submission.skills.length === 0 ? {} : { skills: submission.skills }),
    ...(submission.references === undefined || submission.references.length === 0
      ? {}
      : { references: submission.references }),
    ...extra,
  };
}

/** The middle column: the conversation (or a fresh one), its stream state, and the composer. */
export function ConversationView(): ReactElement {
  const t = useTranslation();
  const { live, api, queryClient } = useServices();
  const conversationId = useNavigation((state) => state.conversationId);
  const projectId = useNavigation((state) => state.projectId);
  const openConversation = useNavigation((state) => state.openConversation);
  const rightCollapsed = useLayout((state) => !isRightOpen(state));
  const toggleRight = useLayout((state) => state.toggleRight);
  const query = useConversationQuery(conversationId);
  const store = live.store(conversationId ?? '');
  const snapshot = useSyncExternalStore(frameBatched(store.subscribe), store.getSnapshot);
  const streamState = useSyncExternalStore(live.subscribe, live.getStreamState);
  const providers = useProviders();
  const actions = useConversationActions(conversationId);
  const create = useCreateConversation();
  const markSeen = useSeen((state) => state.markSeen);

  // What this browser has seen, kept in localStorage: written at most once a second while a reply
  // streams (each write serialises the whole map), and at once when the conversation changes.
  const seenLater = useRef<{ timer: ReturnType<typeof setTimeout>; write: () => void } | undefined>(
    undefined,
  );
  useEffect(() => {
    if (conversationId === undefined || !snapshot.loaded) return;
    const write = (): void => {
      seenLater.current = undefined;
      markSeen(conversationId, snapshot.lastSeq);
    };
    if (seenLater.current === undefined) {
      write();
      seenLater.current = { timer: setTimeout(() => seenLater.current?.write(), 1000), write };
    } else seenLater.current.write = write;
  }, [conversationId, snapshot.loaded, snapshot.lastSeq, markSeen]);
  useEffect(
    () => () => {
      const pending = seenLater.current;
      if (pending === undefined) return;
      clearTimeout(pending.timer);
      pending.write();
    },
    [conversationId],
  );

  // Tell assistive technology when an answer ends (the message list itself is not live: it would
  // read every streamed word).
  const [announcement, setAnnouncement] = useState('');
  const watchedRun = useRef<string | undefined>(undefined);
  useEffect(() => {
    const active = snapshot.activeRun?.run.id;
    const previous = watchedRun.current;
    watchedRun.current = active;
    if (previous === undefined || active !== undefined) return;
    const ended = snapshot.runs.find((run) => run.run.id === previous);
    if (ended === undefined) return;
    setAnnouncement(
      ended.assistant.status === 'complete'
        ? t('conversation.announceComplete')
        : t('conversation.announceEnded'),
    );
  }, [snapshot.activeRun, snapshot.runs, t]);

  // A card waiting for free input takes what is typed in the composer (spec §4.5 routing).
  const card = waitingCard(snapshot.activeRun?.assistant.parts ?? []);
  const answering = card !== undefined && (card.card.allowFreeInput || card.card.kind === 'input');
  const [answerError, setAnswerError] = useState<string | undefined>();
  const [newProfileId, setNewProfileId] = useState<string | undefined>(undefined);
  const noProvider = providers.isSuccess && providers.data.length === 0;
  const running = snapshot.activeRun !== undefined || actions.send.isPending;
  // A failed send is said until it no longer applies: another conversation opened, or the
  // providers changed (one added after "no provider"); the next send clears it too. Query data
  // keeps its identity while unchanged, so a refetch that finds the same providers keeps it.
  const resetSend = actions.send.reset;
  const resetCreate = create.reset;
  const resetRegenerate = actions.regenerate.reset;
  useEffect(() => {
    resetSend();
    resetCreate();
    resetRegenerate();
  }, [conversationId, providers.data, resetSend, resetCreate, resetRegenerate]);
  const sendError = actions.send.error ?? create.error ?? actions.regenerate.error;
  const errorText =
    sendError === null
      ? undefined
      : isApiError(sendError, 'CONVERSATION_BUSY')
        ? t('conversation.busy')
        : t('common.error', { message: errorMessage(sendError) });

  // A failed send rejects, so the composer puts the text back; a conversation created for a first
  // message that could not be sent is deleted again, so no empty one is left behind.
  const onSend = async (submission: ComposerSubmission): Promise<void> => {
    if (conversationId !== undefined && answering) {
      const skill = submission.skills[0];
      const text =
        skill === undefined
          ? submission.text
          : `/${skill.name}${skill.arguments === undefined || skill.arguments === '' ? '' : ` ${skill.arguments}`}`;
      setAnswerError(undefined);
      try {
        const result = await api.answerCard(
          conversationId,
          card.card.id,
          { type: 'text', text },
          `${card.card.id}:composer:${Date.now()}`,
        );
        if (result.new_run_id !== undefined) live.markRunning(conversationId);
      } catch (failure) {
        setAnswerError(
          isApiError(failure, 'CARD_ALREADY_RESOLVED')
            ? t('hitl.alreadyAnswered')
            : t('common.error', { message: errorMessage(failure) }),
        );
        // A card answered elsewhere needs no retry; any other failure gives the text back.
        if (!isApiError(failure, 'CARD_ALREADY_RESOLVED')) throw failure;
      }
      return;
    }
    if (conversationId !== undefined) {
      await actions.send.mutateAsync({ id: conversationId, input: requestOf(submission) });
      return;
    }
    const conversation = await create.mutateAsync({
      projectId: projectId ?? null,
      ...(newProfileId === undefined ? {} : { profileId: newProfileId }),
    });
    setNewProfileId(undefined);
    markSeen(conversation.id, conversation.last_seq);
    try {
      await actions.send.mutateAsync({ id: conversation.id, input: requestOf(submission) });
    } catch (error) {
      await api.deleteConversation(conversation.id).catch(() => undefined);
      void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
      throw error;
    }
    openConversation(conversation.id);
  };
  const onEdit = (run: RunView, text: string): void => {
    if (conversationId === undefined) return;
    const attachments = run.user.parts.flatMap((part) =>
      part.type === 'attachment' ? [part.upload_id] : [],
    );
    const skills = run.user.parts.flatMap((part) =>
      part.type === 'skill'
        ? [{ name: part.name, ...(part.arguments === undefined ? {} : { arguments: part.arguments }) }]
        : [],
    );
    actions.send.mutate({
      id: conversationId,
      input: requestOf({ text, attachments, skills }, { edit_of: run.user.id }),
    });
  };

  const loadEarlier = useCallback(() => {
    if (conversationId !== undefined) void live.loadEarlier(conversationId);
  }, [conversationId, live]);
  const notFound = query.isError && isApiError(query.error, 'NOT_FOUND');
  // The first screen is drawn once the opened conversation (or the new-conversation view) is.
  useMarkFirstScreenDrawn(conversationId === undefined || snapshot.loaded || query.isError);
  const title =
    conversationId === undefined
      ? t('nav.newConversation')
      : snapshot.title === ''
        ? t('nav.untitled')
        : snapshot.title;

  return (
    <div className="conversation-view">
      <header className="conversation-header">
        <h1 className="conversation-heading">{title}</h1>
        {conversationId === undefined ? (
          <NewConversationProfilePicker value={newProfileId} onChange={setNewProfileId} />
        ) : (
          query.data !== undefined && (
            <ProfilePicker conversationId={conversationId} profileId={query.data.conversation.profile_id} />
          )
        )}
        {streamState === 'reconnecting' && (
          <span className="stream-state" role="status">
            <span className="spinner" aria-hidden="true" /> {t('conversation.reconnecting')}
          </span>
        )}
        <button
          type="button"
          className="icon-button"
          aria-label={rightCollapsed ? t('workbench.expand') : t('workbench.collapse')}
          aria-pressed={!rightCollapsed}
          onClick={toggleRight}
        >
          <PanelRightIcon />
        </button>
      </header>
      {conversationId !== undefined && snapshot.loaded && snapshot.runs.length > 0 ? (
        <MessageList
          conversationId={conversationId}
          runs={snapshot.runs}
          busy={running}
          onEdit={onEdit}
          onRegenerate={(messageId) => actions.regenerate.mutate(messageId)}
          onSelectBranch={(messageId) => actions.selectBranch.mutate(messageId)}
          hasEarlier={snapshot.earlierCursor !== undefined}
          onLoadEarlier={loadEarlier}
        />
      ) : (
        <div className="conversation-empty">
          {notFound ? (
            <p className="empty-state">{t('conversation.notFound')}</p>
          ) : conversationId !== undefined && query.isError && !snapshot.loaded ? (
            <div className="empty-state" role="alert">
              <p>{t('common.error', { message: errorMessage(query.error) })}</p>
              <button type="button" className="button" onClick={() => void query.refetch()}>
                {t('common.retry')}
              </button>
            </div>
          ) : conversationId !== undefined && !snapshot.loaded ? (
            <p className="empty-state" role="status">
              {t('conversation.loading')}
            </p>
          ) : noProvider ? (
            <FirstRun />
          ) : (
            <p className="empty-greeting">{t('conversation.empty')}</p>
          )}
        </div>
      )}
      <div className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </div>
      <div className="composer-dock">
        <Composer
          draftKey={conversationId ?? ''}
          running={running}
          disabled={notFound}
          error={answerError ?? errorText}
          answering={answering}
          onSend={onSend}
          onStop={() => {
            if (snapshot.activeRun !== undefined) actions.cancel.mutate(snapshot.activeRun.run.id);
          }}
          onNewConversation={() => openConversation(undefined)}
        />
      </div>
    </div>
  );
}
