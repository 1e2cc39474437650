import { useQuery } from '@tanstack/react-query';
import type { WorkbenchEvent } from '@youyou/contracts';
import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import { formatCount, useTranslation, type Translate } from '../i18n/index.ts';
import { ChevronIcon, ChevronLeftIcon, CloseIcon, PlayIcon } from '../icons/index.ts';
import { ContextReportView } from '../memory/index.ts';
import { Parts } from '../parts/index.ts';
import { useOptionalServices, useServices } from '../services/index.ts';
import { Dialog } from '../ui/index.ts';
import { callAt, projectThrough, timelineOf, type TimelineEntry } from './replay-timeline.ts';
import './replay.css';

/** How long a row stays on screen while playing. */
const PLAY_STEP_MS = 450;

function seconds(ms: number): string {
  return `+${(ms / 1000).toFixed(2)} s`;
}

function eventText(t: Translate, entry: TimelineEntry & { kind: 'event' }): string {
  const event: WorkbenchEvent = entry.event;
  switch (event.type) {
    case 'message.delta':
      return t('replay.text', { characters: formatCount(entry.characters) });
    case 'thinking.delta':
      return t('replay.thinking', { characters: formatCount(entry.characters) });
    case 'tool.call':
      return t('replay.toolCall', { tool: event.payload.tool_name });
    case 'tool.result':
      return t(event.payload.success ? 'replay.toolResult' : 'replay.toolFailed', {
        tool: event.payload.tool_name,
        ms: Math.round(event.payload.duration_ms),
      });
    case 'run.phase':
      return t('replay.phase', { phase: event.payload.phase, status: event.payload.status });
    case 'hitl.request':
      return t('replay.card', { question: event.payload.card.question });
    case 'hitl.resolved':
      return t('replay.cardResolved', { status: event.payload.status });
    case 'run.completed':
      return t('replay.completed', {
        input: formatCount(event.payload.usage.input_tokens),
        output: formatCount(event.payload.usage.output_tokens),
      });
    case 'run.failed':
      return t('replay.failed', { message: event.payload.error.message });
    default:
      return event.type;
  }
}

function EntryRow({
  entry,
  index,
  position,
  t,
  onSelect,
}: {
  entry: TimelineEntry;
  index: number;
  position: number;
  t: Translate;
  onSelect: (index: number) => void;
}): ReactElement {
  const state = index === position ? ' current' : index > position ? ' future' : '';
  const label =
    entry.kind === 'call'
      ? t('replay.call', {
          index: entry.call.call_index + 1,
          model: entry.call.report.model_id,
          total: formatCount(entry.call.report.total_tokens),
          budget: formatCount(entry.call.report.budget_tokens),
        }) +
        (entry.call.report.trims.length === 0
          ? ''
          : ` · ${t('replay.callTrims', { count: entry.call.report.trims.length })}`)
      : eventText(t, entry);
  return (
    <li className={`replay-entry ${entry.kind}${state}`} data-kind={entry.kind}>
      <button
        type="button"
        className="replay-entry-button"
        aria-current={index === position ? 'step' : undefined}
        data-type={entry.kind === 'event' ? entry.event.type : 'model.call'}
        onClick={() => onSelect(index)}
      >
        <span className="replay-at">{seconds(entry.at)}</span>
        <span className="replay-label">{label}</span>
      </button>
    </li>
  );
}

function ReplayBody({ runId }: { runId: string }): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const replay = useQuery({ queryKey: ['replay', runId], queryFn: () => api.runReplay(runId) });
  const entries = useMemo(() => (replay.data === undefined ? [] : timelineOf(replay.data)), [replay.data]);
  const [position, setPosition] = useState<number | undefined>(undefined);
  const [playing, setPlaying] = useState(false);
  const last = entries.length - 1;
  // Opens on the finished answer; playing starts from the beginning when at the end.
  const at = Math.min(position ?? last, last);
  useEffect(() => {
    if (!playing) return;
    if (at >= last) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => setPosition(at + 1), PLAY_STEP_MS);
    return () => clearTimeout(timer);
  }, [playing, at, last]);
  const entry = entries[at];
  const projection = useMemo(
    () =>
      replay.data === undefined || entry === undefined
        ? undefined
        : projectThrough(replay.data.events, entry.through),
    [replay.data, entry],
  );
  const call = callAt(entries, at);
  if (replay.isPending) return <p role="status">{t('replay.loading')}</p>;
  if (replay.isError) return <p role="alert">{errorMessage(replay.error)}</p>;
  if (entries.length === 0) return <p>{t('replay.empty')}</p>;
  const go = (index: number): void => {
    setPlaying(false);
    setPosition(Math.max(0, Math.min(last, index)));
  };
  return (
    <div className="replay">
      <div className="replay-controls" role="toolbar" aria-label={t('replay.timeline')}>
        <button type="button" className="button small" onClick={() => go(0)} aria-label={t('replay.first')}>
          {t('replay.firstShort')}
        </button>
        <button
          type="button"
          className="button small"
          onClick={() => go(at - 1)}
          aria-label={t('replay.previous')}
        >
          <ChevronLeftIcon size={14} />
        </button>
        <button
          type="button"
          className="button small primary"
          data-testid="replay-play"
          onClick={() => {
            if (playing) setPlaying(false);
            else {
              if (at >= last) setPosition(0);
              setPlaying(true);
            }
          }}
        >
          {playing ? t('replay.pause') : t('replay.play')}
        </button>
        <button
          type="button"
          className="button small"
          onClick={() => go(at + 1)}
          aria-label={t('replay.next')}
        >
          <ChevronIcon size={14} />
        </button>
        <button type="button" className="button small" onClick={() => go(last)} aria-label={t('replay.last')}>
          {t('replay.lastShort')}
        </button>
        <input
          type="range"
          min={0}
          max={last}
          value={at}
          aria-label={t('replay.position')}
          onChange={(event) => go(Number(event.target.value))}
        />
        <span className="replay-step" data-testid="replay-step">
          {t('replay.step', { step: at + 1, total: entries.length })}
        </span>
      </div>
      <div className="replay-columns">
        <ol className="replay-timeline" aria-label={t('replay.timeline')} data-testid="replay-timeline">
          {entries.map((row, index) => (
            <EntryRow key={row.key} entry={row} index={index} position={at} t={t} onSelect={go} />
          ))}
        </ol>
        <div className="replay-side">
          <section className="replay-answer" data-testid="replay-answer">
            <h3>{t('replay.answerSoFar')}</h3>
            {projection === undefined || projection.assistant.parts.length === 0 ? (
              <p className="empty-state">{t('replay.nothingYet')}</p>
            ) : (
              <Parts parts={projection.assistant.parts} />
            )}
          </section>
          <section className="replay-report" data-testid="replay-report">
            {call === undefined ? (
              <p className="empty-state">{t('replay.noCallYet')}</p>
            ) : (
              <>
                <h3>{t('replay.reportBeside', { index: call.call_index + 1 })}</h3>
                <ContextReportView report={call.report} t={t} />
              </>
            )}
          </section>
        </div>
      </div>
    </div>
  );
}

/**
 * An answer's replay (spec §4.17 事件重放): its recorded events as a timeline that steps or plays
 * back, the answer as it stood at each step (drawn by the conversation's own part renderers), and
 * beside each model call the report of what the model saw.
 */
export function ReplayDialog({ runId, onClose }: { runId: string; onClose: () => void }): ReactElement {
  const t = useTranslation();
  return (
    <Dialog open title={t('replay.title')} onClose={onClose} className="replay-dialog">
      <header className="dialog-header">
        <h2>{t('replay.title')}</h2>
        <button type="button" className="icon-button" aria-label={t('replay.close')} onClick={onClose}>
          <CloseIcon />
        </button>
      </header>
      <ReplayBody runId={runId} />
    </Dialog>
  );
}

/** The answer's "Replay" button; nothing outside the app (no server to ask). */
export function ReplayButton({ runId }: { runId: string }): ReactElement | null {
  const t = useTranslation();
  const [open, setOpen] = useState(false);
  if (useOptionalServices() === undefined) return null;
  return (
    <>
      <button
        type="button"
        className="icon-button"
        aria-label={t('replay.open')}
        title={t('replay.open')}
        data-testid="replay-answer-button"
        onClick={() => setOpen(true)}
      >
        <PlayIcon size={15} />
      </button>
      {open && <ReplayDialog runId={runId} onClose={() => setOpen(false)} />}
    </>
  );
}
