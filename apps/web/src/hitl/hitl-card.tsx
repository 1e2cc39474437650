import { useEffect, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import type { FormValue, HitlAnswer, HitlCard, MessagePart } from '@youyou/contracts';
import { errorMessage, isApiError } from '../api/index.ts';
import { useTranslation, type Translate } from '../i18n/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { useServices } from '../services/index.ts';
import { FormFields, initialValues } from '../ui-schema/index.ts';
import './hitl.css';

type HitlPart = Extract<MessagePart, { type: 'hitl' }>;

/** A key per answer attempt, reused by retries of that attempt: the server answers them once. */
function newClientKey(cardId: string): string {
  return `${cardId}:${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
}

/** Sends answers to one card and remembers the error of the last attempt. */
function useAnswer(card: HitlCard) {
  const { api } = useServices();
  const conversationId = useNavigation((state) => state.conversationId);
  const t = useTranslation();
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [problems, setProblems] = useState<Record<string, string>>({});
  const send = async (answer: HitlAnswer): Promise<void> => {
    if (conversationId === undefined || sending) return;
    setSending(true);
    setError(undefined);
    const key = newClientKey(card.id);
    try {
      await api.answerCard(conversationId, card.id, answer, key);
    } catch (failure) {
      if (isApiError(failure, 'CARD_ALREADY_RESOLVED')) setError(t('hitl.alreadyAnswered'));
      else {
        const details = (failure as { details?: { problems?: { path: string; message: string }[] } }).details;
        setProblems(
          Object.fromEntries((details?.problems ?? []).map((problem) => [problem.path, problem.message])),
        );
        setError(t('common.error', { message: errorMessage(failure) }));
      }
    } finally {
      setSending(false);
    }
  };
  return { send, sending, error, problems };
}

/** "expires in 42 s", ticking; undefined without a timeout. */
function useSecondsLeft(expiresAt: string | undefined): number | undefined {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (expiresAt === undefined) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);
  return expiresAt === undefined ? undefined : Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 1000));
}

function FreeInput(props: {
  card: HitlCard;
  disabled: boolean;
  onSend: (text: string) => void;
  t: Translate;
}): ReactElement {
  const { card, disabled, onSend, t } = props;
  const [text, setText] = useState('');
  const submit = (): void => {
    if (text.trim() === '') return;
    onSend(text.trim());
    setText('');
  };
  const multiline = card.kind === 'input';
  const common = {
    className: 'hitl-free-input',
    'aria-label': card.freeInputHint ?? t('hitl.freeInput'),
    placeholder: card.freeInputHint ?? t('hitl.freeInput'),
    value: text,
    disabled,
    'data-testid': 'hitl-free-input',
  };
  return (
    <div className="hitl-free">
      {multiline ? (
        <textarea
          {...common}
          rows={3}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              submit();
            }
          }}
        />
      ) : (
        <input
          {...common}
          type="text"
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
              event.preventDefault();
              submit();
            }
          }}
        />
      )}
      <button type="button" className="button" disabled={disabled || text.trim() === ''} onClick={submit}>
        {t('hitl.sendAnswer')}
      </button>
    </div>
  );
}

/** The options of a choice card: arrows move, number keys pick, Enter confirms. */
function ChoiceList(props: {
  card: HitlCard;
  disabled: boolean;
  onPick: (choiceId: string) => void;
  t: Translate;
}): ReactElement {
  const { card, disabled, onPick, t } = props;
  const recommended = card.choices.findIndex((choice) => choice.recommended === true);
  const [active, setActive] = useState(Math.max(0, recommended));
  const list = useRef<HTMLDivElement>(null);
  const focusOption = (index: number): void => {
    setActive(index);
    list.current?.querySelectorAll<HTMLElement>('[role="radio"]')[index]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (disabled) return;
    const count = card.choices.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowRight') {
      event.preventDefault();
      focusOption((active + 1) % count);
    } else if (event.key === 'ArrowUp' || event.key === 'ArrowLeft') {
      event.preventDefault();
      focusOption((active - 1 + count) % count);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      const choice = card.choices[active];
      if (choice !== undefined) onPick(choice.id);
    } else if (/^[1-9]$/.test(event.key)) {
      const choice = card.choices[Number(event.key) - 1];
      if (choice !== undefined) {
        event.preventDefault();
        setActive(Number(event.key) - 1);
        onPick(choice.id);
      }
    }
  };
  return (
    <div
      ref={list}
      role="radiogroup"
      aria-label={card.question}
      className="hitl-choices"
      onKeyDown={onKeyDown}
    >
      {card.choices.map((choice, index) => (
        <div
          key={choice.id}
          role="radio"
          aria-checked={index === active}
          tabIndex={index === active ? 0 : -1}
          aria-disabled={disabled}
          className={`hitl-choice${index === active ? ' active' : ''}`}
          onClick={() => {
            if (disabled) return;
            setActive(index);
            onPick(choice.id);
          }}
          onFocus={() => setActive(index)}
          data-testid={`hitl-choice-${choice.id}`}
        >
          <span className="hitl-choice-number" aria-hidden="true">
            {index + 1}
          </span>
          <span className="hitl-choice-body">
            <span className="hitl-choice-label">
              {choice.label}
              {choice.recommended === true && <span className="hitl-badge">{t('hitl.recommended')}</span>}
            </span>
            {choice.description !== undefined && (
              <span className="hitl-choice-description">{choice.description}</span>
            )}
            <span className="hitl-choice-impact">
              <span className="hitl-impact-label">{t('hitl.impact')}</span> {choice.impact}
            </span>
          </span>
        </div>
      ))}
    </div>
  );
}

function ToolConfirmation(props: {
  card: HitlCard;
  disabled: boolean;
  onAnswer: (answer: HitlAnswer) => void;
  t: Translate;
}): ReactElement {
  const { card, disabled, onAnswer, t } = props;
  const confirmation = card.confirmation;
  const [raw, setRaw] = useState(false);
  const [reason, setReason] = useState('');
  if (confirmation === undefined) {
    return (
      <div className="hitl-actions">
        <button
          type="button"
          className="button primary"
          disabled={disabled}
          onClick={() => onAnswer({ type: 'confirm', confirmed: true })}
        >
          {t('hitl.yes')}
        </button>
        <button
          type="button"
          className="button"
          disabled={disabled}
          onClick={() => onAnswer({ type: 'confirm', confirmed: false })}
        >
          {t('hitl.no')}
        </button>
      </div>
    );
  }
  return (
    <>
      <div className="hitl-tool">
        <div className="hitl-tool-name">
          <code>{confirmation.tool_name}</code>
          {confirmation.mutating ? (
            <span className="hitl-badge warning">{t('hitl.mutating')}</span>
          ) : (
            <span className="hitl-badge">{t('hitl.readOnly')}</span>
          )}
        </div>
        {confirmation.description !== '' && (
          <p className="hitl-tool-description">{confirmation.description}</p>
        )}
        {confirmation.arguments.length > 0 && (
          <dl className="hitl-arguments">
            {confirmation.arguments.map((argument) => (
              <div key={argument.name}>
                <dt>{argument.name}</dt>
                <dd>{argument.value}</dd>
              </div>
            ))}
          </dl>
        )}
        <button type="button" className="part-toggle" aria-expanded={raw} onClick={() => setRaw(!raw)}>
          {t('hitl.rawArguments')}
        </button>
        {raw && <pre className="hitl-raw">{confirmation.raw_arguments}</pre>}
      </div>
      <div className="hitl-actions">
        <button
          type="button"
          className="button primary"
          disabled={disabled}
          onClick={() => onAnswer({ type: 'confirm', confirmed: true, scope: 'once' })}
          data-testid="hitl-allow-once"
        >
          {t('hitl.allowOnce')}
        </button>
        <button
          type="button"
          className="button"
          disabled={disabled}
          onClick={() => onAnswer({ type: 'confirm', confirmed: true, scope: 'conversation' })}
          data-testid="hitl-allow-conversation"
        >
          {t('hitl.allowConversation')}
        </button>
        <input
          type="text"
          className="hitl-deny-reason"
          aria-label={t('hitl.denyReason')}
          placeholder={t('hitl.denyReason')}
          value={reason}
          disabled={disabled}
          onChange={(event) => setReason(event.target.value)}
        />
        <button
          type="button"
          className="button danger"
          disabled={disabled}
          onClick={() =>
            onAnswer({
              type: 'confirm',
              confirmed: false,
              ...(reason.trim() === '' ? {} : { reason: reason.trim() }),
            })
          }
          data-testid="hitl-deny"
        >
          {t('hitl.deny')}
        </button>
      </div>
    </>
  );
}

/** What became of a card, in one line, with how free input was taken. */
export function resolutionText(part: HitlPart, t: Translate): string {
  const { card, resolution } = part;
  if (part.card_status === 'pending') return '';
  if (resolution === undefined) return t(`hitl.status.${part.card_status}`);
  const typed = resolution.free_text;
  const choiceLabel = (id: string): string => {
    const index = card.choices.findIndex((choice) => choice.id === id);
    return index === -1 ? id : `${index + 1}. ${card.choices[index]?.label ?? id}`;
  };
  switch (resolution.status) {
    case 'expired':
      return t('hitl.status.expired');
    case 'cancelled':
      return t('hitl.status.cancelled');
    case 'superseded':
      return t('hitl.sentAsNewRequest', { text: typed ?? '' });
    case 'answered':
      break;
  }
  const answer = resolution.answer;
  if (resolution.route?.path === 'choice' && answer?.type === 'choice') {
    const index = card.choices.findIndex((choice) => choice.id === answer.choice_id);
    return t('hitl.takenAsOption', {
      number: index + 1,
      label: choiceLabel(answer.choice_id),
      text: typed ?? '',
    });
  }
  switch (answer?.type) {
    case 'choice':
      return t('hitl.chose', { label: choiceLabel(answer.choice_id) });
    case 'text':
      return t('hitl.sentAsAnswer', { text: answer.text });
    case 'confirm':
      if (!answer.confirmed)
        return answer.reason === undefined
          ? t('hitl.denied')
          : t('hitl.deniedBecause', { reason: answer.reason });
      if (card.confirmation === undefined) return t('hitl.confirmedYes');
      if (answer.scope !== 'conversation') return t('hitl.allowedOnce');
      return resolution.answered_with_card_id === undefined
        ? t('hitl.allowedConversation')
        : t('hitl.allowedWithTwin');
    case 'form':
      return t('hitl.submitted');
    case undefined:
      return t('hitl.status.answered');
  }
}

/**
 * A HITL card in the conversation (spec §4.5): the question; for a choice card each option with
 * its description, its impact and the recommended badge (arrows move, number keys pick, Enter
 * confirms); a free-input box with the card's hint; yes/no, a form, or — for a tool confirmation —
 * the tool, its description, its arguments as readable lines and whether it changes anything, with
 * allow once / allow for this conversation / deny. A sub-agent's card says which sub-agent asks
 * (its profile and task), so two of them asking for the same tool tell apart. Once resolved it
 * says what became of it.
 */
export function HitlCardPart({ part }: { part: HitlPart }): ReactElement {
  const t = useTranslation();
  const { card } = part;
  const pending = part.card_status === 'pending';
  const { send, sending, error, problems } = useAnswer(card);
  const [values, setValues] = useState<Record<string, FormValue>>(() => initialValues(card.fields ?? []));
  const secondsLeft = useSecondsLeft(pending ? card.expires_at : undefined);
  const disabled = !pending || sending;
  const route = part.resolution?.route;
  return (
    <section
      className={`hitl-card ${part.card_status}`}
      aria-label={t('hitl.cardLabel')}
      data-testid="hitl-card"
      data-card-status={part.card_status}
      data-card-kind={card.kind}
    >
      <header className="hitl-header">
        <span className="hitl-question">{card.question}</span>
        {pending && secondsLeft !== undefined && (
          <span className="hitl-timer">{t('hitl.expiresIn', { seconds: secondsLeft })}</span>
        )}
      </header>
      {card.subagent !== undefined && (
        <p className="hitl-requester" data-testid="hitl-requester">
          <span className="hitl-requester-name">
            {card.subagent.profile_name === null
              ? t('hitl.subagentUnnamed')
              : t('hitl.askedBySubagent', { name: card.subagent.profile_name })}
          </span>{' '}
          <span className="hitl-requester-task" title={card.subagent.task}>
            {t('hitl.subagentTask', { task: card.subagent.task })}
          </span>
        </p>
      )}
      {pending ? (
        <>
          {card.kind === 'choice' && (
            <ChoiceList
              card={card}
              disabled={disabled}
              t={t}
              onPick={(choiceId) => void send({ type: 'choice', choice_id: choiceId })}
            />
          )}
          {card.kind === 'confirm' && (
            <ToolConfirmation
              card={card}
              disabled={disabled}
              t={t}
              onAnswer={(answer) => void send(answer)}
            />
          )}
          {card.kind === 'form' && (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                void send({ type: 'form', values });
              }}
            >
              <FormFields
                idPrefix={`card-${card.id}`}
                fields={card.fields ?? []}
                values={values}
                problems={problems}
                disabled={disabled}
                onChange={(id, value) => setValues((current) => ({ ...current, [id]: value }))}
              />
              <div className="hitl-actions">
                <button type="submit" className="button primary" disabled={disabled}>
                  {t('hitl.submit')}
                </button>
              </div>
            </form>
          )}
          {(card.allowFreeInput || card.kind === 'input') && card.confirmation === undefined && (
            <FreeInput
              card={card}
              disabled={disabled}
              t={t}
              onSend={(text) => void send({ type: 'text', text })}
            />
          )}
          {error !== undefined && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
        </>
      ) : (
        <p className="hitl-outcome" data-testid="hitl-outcome">
          {resolutionText(part, t)}
          {route !== undefined && (
            <span className="hitl-route" title={route.reason}>
              {' '}
              · {t(`hitl.routedBy.${route.by}`)}: {route.reason}
            </span>
          )}
        </p>
      )}
    </section>
  );
}

/**
 * The card of a conversation that waits for the user's free input (the composer routes typed text
 * to it), if any.
 *
 * @example
 * const waiting = waitingCard(snapshot.activeRun?.assistant.parts ?? []);
 */
export function waitingCard(parts: readonly MessagePart[]): HitlPart | undefined {
  const last = parts.findLast(
    (part): part is HitlPart => part.type === 'hitl' && part.card_status === 'pending',
  );
  return last;
}
