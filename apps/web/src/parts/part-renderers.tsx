import { memo, useEffect, useMemo, useState, type ComponentType, type ReactElement } from 'react';
import type { MessagePart } from '@youyou/contracts';
import { useServices } from '../services/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { AlertIcon, BrainIcon, ChevronIcon, FileIcon, SparkIcon, ToolIcon } from '../icons/index.ts';
import { Markdown } from '../markdown/index.ts';
import { usePreferences } from '../preferences/index.ts';
import { useWorkbenchUi } from '../workbench-ui/index.ts';
import { HitlCardPart } from '../hitl/index.ts';
import { CardPart } from '../ui-schema/index.ts';
import { ToolAudit } from './tool-audit.tsx';
import { DocumentStatus } from '../documents/index.ts';
import { useDocumentViewer } from '../knowledge/index.ts';
import './parts.css';

type PartOf<Type extends MessagePart['type']> = Extract<MessagePart, { type: Type }>;

/** What a renderer gets: its part, and the tool result that answers it when it is a tool call. */
export interface PartProps<Part extends MessagePart = MessagePart> {
  part: Part;
  result?: PartOf<'tool_result'> | undefined;
}

function TextPart({ part }: PartProps<PartOf<'text'>>): ReactElement {
  const animate = usePreferences((state) => state.streamingAnimation);
  const streaming = part.status === 'streaming';
  return (
    <div className={streaming && animate ? 'text-part streaming' : 'text-part'}>
      <Markdown text={part.text} streaming={streaming} />
    </div>
  );
}

/** Seconds since the component first rendered, ticking while `running`. */
function useElapsedSeconds(running: boolean): number {
  const [started] = useState(() => Date.now());
  const [now, setNow] = useState(started);
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return Math.floor((now - started) / 1000);
}

function ThinkingPart({ part }: PartProps<PartOf<'thinking'>>): ReactElement {
  const t = useTranslation();
  const live = part.status === 'streaming';
  const [open, setOpen] = useState(true);
  const seconds = useElapsedSeconds(live);
  return (
    <div className={`thinking-part${live ? ' live' : ''}`}>
      <button type="button" className="part-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <BrainIcon size={15} />
        <span>
          {live ? t('conversation.thinking') : t('conversation.thought')}
          {live && seconds > 0 && <span className="thinking-seconds"> · {seconds} s</span>}
        </span>
        {live && <span className="thinking-pulse" aria-hidden="true" />}
        <ChevronIcon size={14} className={open ? 'chevron open' : 'chevron'} />
      </button>
      {open && (
        <div className="thinking-text" aria-live={live ? 'polite' : undefined}>
          {part.text}
        </div>
      )}
    </div>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** One compact line per call: name, status, duration; arguments and result on demand. */
/** The task a `spawn_agent` call gave its sub-agent, from the call's arguments. */
function spawnedTask(argumentsText: string): string {
  try {
    const parsed = JSON.parse(argumentsText) as { task?: unknown };
    return typeof parsed.task === 'string' ? parsed.task : '';
  } catch {
    return '';
  }
}

/** A sub-agent's badge in the message (spec §4.4): opens the tracker on it. */
function AgentBadge({ part, result }: PartProps<PartOf<'tool_call'>>): ReactElement {
  const t = useTranslation();
  const openTracker = useWorkbenchUi((state) => state.openTracker);
  const status =
    part.status === 'running'
      ? 'running'
      : result?.is_error === true || part.status === 'failed'
        ? 'failed'
        : 'completed';
  return (
    <button
      type="button"
      className="agent-badge"
      data-testid="agent-badge"
      data-status={status}
      onClick={() => openTracker({ callId: part.call_id })}
    >
      {status === 'running' && <span className="spinner" aria-hidden="true" />}
      {t('agents.badge', { task: spawnedTask(part.arguments) })}
    </button>
  );
}

function ToolCallPart(props: PartProps<PartOf<'tool_call'>>): ReactElement {
  if (props.part.tool_name === 'spawn_agent') {
    return (
      <>
        <AgentBadge {...props} />
        <ToolCard {...props} />
      </>
    );
  }
  return <ToolCard {...props} />;
}

/** An artifact the turn wrote or changed: a chip that opens it in the right column. */
function ArtifactPart({ part }: PartProps<PartOf<'artifact'>>): ReactElement {
  const t = useTranslation();
  const openArtifact = useWorkbenchUi((state) => state.openArtifact);
  return (
    <button
      type="button"
      className="artifact-chip"
      data-testid="artifact-chip"
      onClick={() => openArtifact(part.artifact_id)}
    >
      <FileIcon size={14} />
      <span>{part.title}</span>
      <span className="artifact-version">
        {t(`artifacts.change.${part.change}` as 'artifacts.change.create', { version: part.version })}
      </span>
    </button>
  );
}

/** The arguments that say what a call is about, in the order tools usually name them. */
const KEY_ARGUMENTS = [
  'path',
  'file',
  'query',
  'pattern',
  'url',
  'command',
  'title',
  'task',
  'question',
  'name',
];

/**
 * The one argument a collapsed tool card shows ("read_file · src/index.ts"): a well-known key, else
 * the first short string; nothing when the arguments are not a JSON object.
 */
export function keyArgumentOf(argumentsJson: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsJson);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const record = parsed as Record<string, unknown>;
  const named = KEY_ARGUMENTS.map((key) => record[key]).find((value) => typeof value === 'string');
  const value = named ?? Object.values(record).find((item) => typeof item === 'string');
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const line = value.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

function ToolCard({ part, result }: PartProps<PartOf<'tool_call'>>): ReactElement {
  const t = useTranslation();
  const [open, setOpen] = useState(false);
  const keyArgument = useMemo(() => keyArgumentOf(part.arguments), [part.arguments]);
  const failed = part.status === 'failed' || result?.is_error === true;
  const status =
    part.status === 'running'
      ? 'running'
      : failed
        ? 'failed'
        : part.status === 'incomplete'
          ? 'incomplete'
          : 'done';
  const statusLabel = {
    running: t('tool.running'),
    failed: t('tool.failed'),
    incomplete: t('tool.incomplete'),
    done: t('tool.done'),
  }[status];
  return (
    <div className={`tool-card ${status}`} data-testid="tool-card">
      <button
        type="button"
        className="part-toggle tool-header"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <ToolIcon size={15} />
        <span className="tool-name">{part.tool_name}</span>
        {keyArgument !== undefined && (
          <span className="tool-key-argument" title={keyArgument}>
            {keyArgument}
          </span>
        )}
        <span className={`tool-status ${status}`}>
          {status === 'running' && <span className="spinner" aria-hidden="true" />}
          {statusLabel}
        </span>
        {result !== undefined && (
          <span className="tool-duration">{t('tool.duration', { milliseconds: result.duration_ms })}</span>
        )}
        <ChevronIcon size={14} className={open ? 'chevron open' : 'chevron'} />
      </button>
      {open && (
        <div className="tool-body">
          <div className="tool-section">
            <div className="tool-label">{t('tool.arguments')}</div>
            <pre>{prettyJson(part.arguments)}</pre>
          </div>
          {result !== undefined && (
            <div className="tool-section">
              <div className="tool-label">{t('tool.result')}</div>
              <pre className={result.is_error ? 'error-output' : undefined}>{result.output}</pre>
            </div>
          )}
          {result !== undefined && <ToolAudit callId={part.call_id} />}
        </div>
      )}
    </div>
  );
}

function ErrorPart({ part }: PartProps<PartOf<'error'>>): ReactElement {
  const t = useTranslation();
  const attempt = part.fatal ? undefined : part.error.details?.['attempt'];
  const maxAttempts = part.error.details?.['maxAttempts'];
  if (typeof attempt === 'number') {
    // A provider retry is one quiet line; the answer (or one final error card) follows it.
    return (
      <div className="retry-line" role="status" data-testid="retry-line" title={part.error.message}>
        <span className="spinner" aria-hidden="true" />
        {typeof maxAttempts === 'number' && maxAttempts >= attempt
          ? t('error.retryingOf', { attempt, total: maxAttempts })
          : t('error.retrying', { attempt: attempt + 1 })}
      </div>
    );
  }
  return (
    <div className="error-part" role="alert">
      <AlertIcon size={16} />
      <div>
        <div className="error-title">{t('error.title', { code: part.error.code })}</div>
        <div className="error-message">{part.error.message}</div>
        {part.error.retryable && <div className="error-hint">{t('error.retryable')}</div>}
        {part.error.code.startsWith('BUDGET_') && <div className="error-hint">{t('error.budget')}</div>}
      </div>
    </div>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${String(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function AttachmentPart({ part }: PartProps<PartOf<'attachment'>>): ReactElement {
  const { api } = useServices();
  if (part.media_type.startsWith('image/')) {
    return (
      <a
        className="attachment-image"
        href={api.uploadUrl(part.upload_id)}
        target="_blank"
        rel="noopener noreferrer"
      >
        <img src={api.uploadUrl(part.upload_id)} alt={part.name} loading="lazy" />
      </a>
    );
  }
  return (
    <span className="attachment-with-status">
      <a
        className="attachment-chip"
        href={api.uploadUrl(part.upload_id)}
        target="_blank"
        rel="noopener noreferrer"
      >
        <FileIcon size={16} />
        <span className="attachment-name">{part.name}</span>
        <span className="attachment-size">{formatSize(part.size)}</span>
      </a>
      <DocumentStatus uploadId={part.upload_id} />
    </span>
  );
}

function SkillPart({ part }: PartProps<PartOf<'skill'>>): ReactElement {
  return (
    <span className="skill-chip">
      <SparkIcon size={14} /> /{part.name}
      {part.arguments !== undefined && part.arguments !== '' && (
        <span className="skill-arguments">{part.arguments}</span>
      )}
    </span>
  );
}

/** An `@` reference of a user message (spec §4.14): documents and artifacts open in the right column. */
function ReferencePart({ part }: PartProps<PartOf<'reference'>>): ReactElement {
  const t = useTranslation();
  const openArtifact = useWorkbenchUi((state) => state.openArtifact);
  const openDocument = useDocumentViewer((state) => state.open);
  const label = part.kind === 'knowledge' ? t('references.projectKnowledge') : part.label;
  const opens = part.kind === 'artifact' || part.kind === 'document';
  return (
    <span className="reference-chip" data-testid="reference-part">
      <span className="badge">{t(`references.kind.${part.kind}`)}</span>
      {opens ? (
        <button
          type="button"
          className="link-button"
          onClick={() => (part.kind === 'artifact' ? openArtifact(part.id) : openDocument(part.id))}
        >
          @{label}
        </button>
      ) : (
        <span>@{label}</span>
      )}
    </span>
  );
}

/**
 * The part renderer registry (spec §4.4): part type → component. A type not listed here (a newer
 * server's, a plugin card) renders nothing, as spec §5 asks. Tool results render inside their call.
 */
export const PART_RENDERERS: Readonly<Record<string, ComponentType<PartProps<never>> | undefined>> = {
  text: TextPart,
  thinking: ThinkingPart,
  tool_call: ToolCallPart,
  error: ErrorPart,
  attachment: AttachmentPart,
  skill: SkillPart,
  reference: ReferencePart,
  artifact: ArtifactPart,
  hitl: HitlCardPart,
  card: CardPart,
};

/** Renders a list of parts through the registry, pairing each tool call with its result. */
export const Parts = memo(function Parts({ parts }: { parts: readonly MessagePart[] }): ReactElement {
  const results = new Map<string, PartOf<'tool_result'>>();
  for (const part of parts) if (part.type === 'tool_result') results.set(part.call_id, part);
  return (
    <>
      {parts.map((part, index) => {
        const Renderer = PART_RENDERERS[part.type] as ComponentType<PartProps> | undefined;
        if (Renderer === undefined) return null;
        const result = part.type === 'tool_call' ? results.get(part.call_id) : undefined;
        return (
          <Renderer key={part.type === 'tool_call' ? part.call_id : index} part={part} result={result} />
        );
      })}
    </>
  );
});

export { formatSize };
