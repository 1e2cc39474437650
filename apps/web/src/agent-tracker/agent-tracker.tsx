import { useEffect, useState, useSyncExternalStore, type ReactElement } from 'react';
import type { AgentNode } from '@youyou/contracts';
import { openEventStream, type ApiClient } from '../api/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { CloseIcon, FileIcon, UsersIcon } from '../icons/index.ts';
import { Markdown } from '../markdown/index.ts';
import { ContextReportDialog } from '../memory/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { Parts } from '../parts/index.ts';
import { ReplayButton } from '../replay/index.ts';
import { useServices } from '../services/index.ts';
import { Dialog } from '../ui/index.ts';
import { useWorkbenchUi } from '../workbench-ui/index.ts';
import { endedWithoutTokens, flattenTree, TrackerStore, type TrackerSnapshot } from './tracker-store.ts';
import './agent-tracker.css';

const IN_FLIGHT = new Set(['pending', 'running', 'waiting_hitl']);
const stores = new Map<string, { store: TrackerStore; users: number }>();

/** The conversation's tracker store, shared by every view of it in this window while one is mounted. */
export function useTracker(conversationId: string | undefined): TrackerSnapshot & { store?: TrackerStore } {
  const { api } = useServices();
  const entry = conversationId === undefined ? undefined : trackerFor(conversationId, api);
  useEffect(() => {
    if (conversationId === undefined) return undefined;
    const held = trackerFor(conversationId, api);
    held.users++;
    held.store.start();
    return () => {
      held.users--;
      if (held.users === 0) {
        held.store.stop();
        stores.delete(conversationId);
      }
    };
  }, [conversationId, api]);
  const empty = EMPTY;
  const snapshot = useSyncExternalStore(
    entry?.store.subscribe ?? noSubscribe,
    entry?.store.getSnapshot ?? (() => empty),
  );
  return entry === undefined ? snapshot : { ...snapshot, store: entry.store };
}

const EMPTY: TrackerSnapshot = { loaded: false, error: undefined, roots: [], processes: new Map() };
const noSubscribe = (): (() => void) => () => undefined;

function trackerFor(conversationId: string, api: ApiClient): { store: TrackerStore; users: number } {
  let entry = stores.get(conversationId);
  if (entry === undefined) {
    entry = { store: new TrackerStore({ conversationId, api, openStream: openEventStream }), users: 0 };
    stores.set(conversationId, entry);
  }
  return entry;
}

/** Re-renders every second while `active`, for running durations. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

function durationOf(node: AgentNode, now: number): number | null {
  if (node.started_at === null) return null;
  const end = node.ended_at === null ? now : Date.parse(node.ended_at);
  return Math.max(0, end - Date.parse(node.started_at));
}

function formatDuration(milliseconds: number | null): string {
  if (milliseconds === null) return '–';
  if (milliseconds < 1000) return `${String(milliseconds)} ms`;
  const seconds = milliseconds / 1000;
  return seconds < 60
    ? `${seconds.toFixed(1)} s`
    : `${String(Math.floor(seconds / 60))} min ${String(Math.round(seconds % 60))} s`;
}

function StatusBadge({ status }: { status: string }): ReactElement {
  const t = useTranslation();
  return (
    <span className={`agent-status ${status}`} data-testid="agent-status">
      {IN_FLIGHT.has(status) && <span className="spinner" aria-hidden="true" />}
      {t(`agents.status.${status}` as 'agents.status.running')}
    </span>
  );
}

function NodeRow({
  node,
  selected,
  onSelect,
  now,
}: {
  node: AgentNode;
  selected: string | undefined;
  onSelect: (runId: string) => void;
  now: number;
}): ReactElement {
  const t = useTranslation();
  return (
    <li role="none">
      <button
        type="button"
        role="treeitem"
        aria-selected={selected === node.run_id}
        aria-level={node.depth}
        className={`agent-node${selected === node.run_id ? ' selected' : ''}`}
        data-run-id={node.run_id}
        data-status={node.status}
        onClick={() => onSelect(node.run_id)}
      >
        <span className="agent-node-task">{node.task}</span>
        <span className="agent-node-meta">
          <StatusBadge status={node.status} />
          <span>{t(`agents.phase.${node.phase}` as 'agents.phase.done')}</span>
          <span>{formatDuration(durationOf(node, now))}</span>
          <span>
            {endedWithoutTokens(node)
              ? t('agents.tokensNone')
              : t('agents.tokens', { count: node.tokens.input + node.tokens.output })}
          </span>
          <span>{t('agents.tools', { count: node.tool_calls })}</span>
        </span>
      </button>
      {node.children.length > 0 && (
        <ul role="group" className="agent-children">
          {node.children.map((child) => (
            <NodeRow key={child.run_id} node={child} selected={selected} onSelect={onSelect} now={now} />
          ))}
        </ul>
      )}
    </li>
  );
}

function NodeDetail({
  node,
  tracker,
  now,
  inWindow,
}: {
  node: AgentNode;
  tracker: TrackerSnapshot & { store?: TrackerStore };
  now: number;
  inWindow: boolean;
}): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const process = tracker.processes.get(node.run_id);
  const { store } = tracker;
  useEffect(() => {
    if (process === undefined) void store?.loadProcess(node.run_id);
  }, [process, store, node.run_id]);
  const openArtifact = useWorkbenchUi((state) => state.openArtifact);
  const closeTracker = useWorkbenchUi((state) => state.closeTracker);
  const running = IN_FLIGHT.has(node.status);
  const [report, setReport] = useState(false);
  return (
    <section className="agent-detail" aria-label={t('agents.detail')} data-testid="agent-detail">
      <header className="agent-detail-header">
        <h3>{node.task}</h3>
        <StatusBadge status={node.status} />
        {running && (
          <button
            type="button"
            className="button danger small"
            onClick={() => void api.cancelRun(node.run_id)}
            data-testid="cancel-agent"
          >
            {t('agents.cancel')}
          </button>
        )}
        {/* Its own assembly reports: the sub-agent's requests pass the same assembler (spec §4.10). */}
        <button
          type="button"
          className="button small"
          onClick={() => setReport(true)}
          data-testid="agent-what-the-model-saw"
        >
          {t('context.whatModelSaw')}
        </button>
        <ContextReportDialog runId={node.run_id} open={report} onClose={() => setReport(false)} />
        {/* The same timeline as any answer's, once the sub-agent has ended. */}
        {!IN_FLIGHT.has(node.status) && <ReplayButton runId={node.run_id} />}
      </header>
      <dl className="agent-facts">
        <dt>{t('agents.phaseLabel')}</dt>
        <dd>
          {t(`agents.phase.${node.phase}` as 'agents.phase.done')}
          {node.current_tool === null ? '' : ` · ${node.current_tool}`}
        </dd>
        <dt>{t('agents.duration')}</dt>
        <dd>{formatDuration(durationOf(node, now))}</dd>
        <dt>{t('agents.tokensLabel')}</dt>
        <dd>
          {endedWithoutTokens(node) ? '—' : `${node.tokens.input} ↑ ${node.tokens.output} ↓`} /{' '}
          {node.budget.max_tokens}
        </dd>
        <dt>{t('agents.toolsLabel')}</dt>
        <dd>
          {node.tool_calls} / {node.budget.max_tool_calls} · {node.tools.join(', ')}
        </dd>
      </dl>
      {node.error !== null && (
        <p className="agent-error" role="alert">
          <code>{node.error.code}</code> {node.error.message}
        </p>
      )}
      {node.artifacts.length > 0 && (
        <ul className="agent-artifacts" aria-label={t('agents.artifacts')}>
          {node.artifacts.map((artifact) => (
            <li key={artifact.id}>
              {inWindow ? (
                // Its own window has no right column: the artifact downloads.
                <a className="artifact-chip" href={api.artifactDownloadUrl(artifact.id)} download>
                  <FileIcon size={14} /> {artifact.title}
                </a>
              ) : (
                <button
                  type="button"
                  className="artifact-chip"
                  onClick={() => {
                    openArtifact(artifact.id);
                    closeTracker();
                  }}
                >
                  <FileIcon size={14} /> {artifact.title}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {node.result !== null && node.result !== '' && (
        <div className="agent-result">
          <div className="tool-label">{t('agents.result')}</div>
          <Markdown text={node.result} />
        </div>
      )}
      <div className="agent-process" data-testid="agent-process">
        <div className="tool-label">{t('agents.process')}</div>
        {process === undefined ? (
          <p className="empty-state">{t('app.loading')}</p>
        ) : (
          <>
            <p className="agent-task-message">{node.task}</p>
            <Parts parts={process.assistant.parts} />
          </>
        )}
      </div>
    </section>
  );
}

/**
 * The tracker (spec §4.4 AgentTracker): the task tree of a conversation's sub-agents with status,
 * phase, duration, tokens and tool count; the selected one's result, artifacts and process drawn by
 * the conversation's own part renderers, live while it runs and replayed after.
 */
export function TrackerPanel({
  conversationId,
  inWindow = false,
}: {
  conversationId: string;
  inWindow?: boolean;
}): ReactElement {
  const t = useTranslation();
  const tracker = useTracker(conversationId);
  const selectedRunId = useWorkbenchUi((state) => state.trackerRunId);
  const selectedCallId = useWorkbenchUi((state) => state.trackerCallId);
  const selectAgent = useWorkbenchUi((state) => state.selectAgent);
  const nodes = flattenTree(tracker.roots);
  const byCall =
    selectedCallId === undefined ? undefined : nodes.find((node) => node.call_id === selectedCallId);
  const selected = byCall ?? nodes.find((node) => node.run_id === selectedRunId) ?? nodes[0];
  const now = useNow(nodes.some((node) => IN_FLIGHT.has(node.status)));
  if (tracker.error !== undefined) return <p className="field-error">{tracker.error}</p>;
  if (!tracker.loaded) return <p className="empty-state">{t('app.loading')}</p>;
  if (nodes.length === 0) return <p className="empty-state">{t('workbench.agentsEmpty')}</p>;
  return (
    <div className="tracker">
      <ul className="agent-tree" role="tree" aria-label={t('agents.tree')} data-testid="agent-tree">
        {tracker.roots.map((root) =>
          root.children.map((node) => (
            <NodeRow
              key={node.run_id}
              node={node}
              selected={selected?.run_id}
              onSelect={selectAgent}
              now={now}
            />
          )),
        )}
      </ul>
      {selected !== undefined && (
        <NodeDetail node={selected} tracker={tracker} now={now} inWindow={inWindow} />
      )}
    </div>
  );
}

/** `#/tracker/<conversation>[/<run>]`: the tracker's own window, or undefined for the workbench. */
export function parseTrackerHash(hash: string): { conversationId: string; runId?: string } | undefined {
  const match = /^#\/tracker\/([^/]+)(?:\/([^/]+))?$/.exec(hash);
  if (match === null || match[1] === undefined) return undefined;
  const conversationId = decodeURIComponent(match[1]);
  return match[2] === undefined
    ? { conversationId }
    : { conversationId, runId: decodeURIComponent(match[2]) };
}

/** The URL of the tracker's own window for a conversation (same origin, so the same sign-in). */
export function trackerWindowUrl(conversationId: string, runId?: string): string {
  return `${location.origin}/#/tracker/${encodeURIComponent(conversationId)}${runId === undefined ? '' : `/${encodeURIComponent(runId)}`}`;
}

/** The tracker as a popup over the workbench; it can pop out into a window of its own. */
export function TrackerDialog(): ReactElement | null {
  const t = useTranslation();
  const open = useWorkbenchUi((state) => state.trackerOpen);
  const close = useWorkbenchUi((state) => state.closeTracker);
  const runId = useWorkbenchUi((state) => state.trackerRunId);
  const conversationId = useNavigation((state) => state.conversationId);
  if (conversationId === undefined) return null;
  return (
    <Dialog open={open} title={t('agents.tracker')} onClose={close} className="tracker-dialog">
      <div className="tracker-dialog-header">
        <UsersIcon size={16} />
        <h2>{t('agents.tracker')}</h2>
        <button
          type="button"
          className="button small"
          data-testid="pop-out-tracker"
          onClick={() => {
            window.open(
              trackerWindowUrl(conversationId, runId),
              `youyou-tracker-${conversationId}`,
              'popup,width=1100,height=760',
            );
            close();
          }}
        >
          {t('agents.popOut')}
        </button>
        <button type="button" className="icon-button" aria-label={t('agents.close')} onClick={close}>
          <CloseIcon size={16} />
        </button>
      </div>
      {open && <TrackerPanel conversationId={conversationId} />}
    </Dialog>
  );
}

/** The tracker in its own browser window (`#/tracker/<conversation>[/<run>]`), live like the popup. */
export function TrackerWindow({
  conversationId,
  runId,
}: {
  conversationId: string;
  runId?: string;
}): ReactElement {
  const t = useTranslation();
  const selectAgent = useWorkbenchUi((state) => state.selectAgent);
  useEffect(() => {
    if (runId !== undefined) selectAgent(runId);
  }, [runId, selectAgent]);
  useEffect(() => {
    document.title = t('agents.tracker');
  }, [t]);
  return (
    <main className="tracker-window" aria-label={t('agents.tracker')}>
      <header className="tracker-dialog-header">
        <UsersIcon size={16} />
        <h1>{t('agents.tracker')}</h1>
      </header>
      <TrackerPanel conversationId={conversationId} inWindow />
    </main>
  );
}

/** The right column's Agents tab: the tree at a glance and the way into the tracker. */
export function AgentsTab(): ReactElement {
  const t = useTranslation();
  const conversationId = useNavigation((state) => state.conversationId);
  const tracker = useTracker(conversationId);
  const openTracker = useWorkbenchUi((state) => state.openTracker);
  const nodes = flattenTree(tracker.roots);
  if (conversationId === undefined || (tracker.loaded && nodes.length === 0)) {
    return <p className="empty-state">{t('workbench.agentsEmpty')}</p>;
  }
  return (
    <div className="agents-tab">
      <button type="button" className="button" data-testid="open-tracker" onClick={() => openTracker()}>
        {t('agents.openTracker')}
      </button>
      <ul className="agent-summary-list">
        {nodes.map((node) => (
          <li key={node.run_id} style={{ paddingInlineStart: `${String((node.depth - 1) * 12)}px` }}>
            <button
              type="button"
              className="agent-summary"
              data-run-id={node.run_id}
              onClick={() => openTracker({ runId: node.run_id })}
            >
              <span className="agent-node-task">{node.task}</span>
              <StatusBadge status={node.status} />
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
