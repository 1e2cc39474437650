import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactElement } from 'react';
import type { Artifact } from '@youyou/contracts';
import { useTranslation } from '../i18n/index.ts';
import { ChevronLeftIcon } from '../icons/index.ts';
import { CodeBlock, Markdown } from '../markdown/index.ts';
import { useServices } from '../services/index.ts';
import { useWorkbenchUi } from '../workbench-ui/index.ts';
import { CsvTable } from './csv-table.tsx';
import { DiffView } from './diff-view.tsx';
import { JsonTree } from './json-tree.tsx';
import './artifacts.css';

const TEXT_UPLOAD = /^(text\/|application\/json$)/;
const DOCX = /officedocument\.wordprocessingml/;

/** The language of an uploaded file, from its name, for highlighting. */
function uploadLanguage(name: string): string | undefined {
  const extension = /\.(\w+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  const languages: Record<string, string> = {
    ts: 'typescript',
    tsx: 'tsx',
    js: 'javascript',
    py: 'python',
    json: 'json',
    yaml: 'yaml',
    yml: 'yaml',
    sh: 'bash',
    go: 'go',
    rs: 'rust',
    java: 'java',
    css: 'css',
    html: 'html',
    sql: 'sql',
  };
  return languages[extension];
}

/**
 * An html, svg or docx page in a sandboxed frame: `sandbox="allow-scripts"` without
 * `allow-same-origin` gives it an opaque origin (no cookie, no storage, no same-origin API), and
 * the page's own CSP (set by the server) lets nothing load or connect.
 */
function SandboxFrame({ src, title }: { src: string; title: string }): ReactElement {
  return (
    <iframe
      className="artifact-sandbox"
      data-testid="artifact-sandbox"
      sandbox="allow-scripts"
      referrerPolicy="no-referrer"
      src={src}
      title={title}
    />
  );
}

function ArtifactBody({ artifact, version }: { artifact: Artifact; version: number }): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const upload = artifact.kind === 'upload';
  const textUpload = upload && TEXT_UPLOAD.test(artifact.media_type);
  const sandboxed =
    artifact.kind === 'html' || artifact.kind === 'svg' || (upload && DOCX.test(artifact.media_type));
  const content = useQuery({
    queryKey: ['artifact-content', artifact.id, version],
    queryFn: async ({ signal }) => {
      if (!upload) return (await api.getArtifactVersion(artifact.id, version)).content ?? '';
      const response = await fetch(api.uploadUrl(artifact.id), { credentials: 'same-origin', signal });
      if (!response.ok) throw new Error(`${String(response.status)} ${response.statusText}`);
      return response.text();
    },
    enabled: !sandboxed && (!upload || textUpload),
    staleTime: Infinity,
  });
  if (sandboxed)
    return (
      <SandboxFrame
        src={api.artifactRenderUrl(artifact.id, upload ? undefined : version)}
        title={artifact.title}
      />
    );
  if (upload && artifact.media_type.startsWith('image/'))
    return <img className="artifact-image" src={api.uploadUrl(artifact.id)} alt={artifact.title} />;
  if (upload && artifact.media_type === 'application/pdf')
    return <iframe className="artifact-pdf" src={api.artifactViewUrl(artifact.id)} title={artifact.title} />;
  if (upload && !textUpload)
    return (
      <a href={api.artifactDownloadUrl(artifact.id)} download>
        {t('artifacts.download')}
      </a>
    );
  if (content.isError) return <p className="field-error">{String(content.error)}</p>;
  if (content.data === undefined) return <p className="empty-state">{t('app.loading')}</p>;
  const text = content.data;
  const kind = upload
    ? /\.(md|markdown)$/i.test(artifact.title)
      ? 'markdown'
      : uploadLanguage(artifact.title) === undefined
        ? 'text'
        : 'code'
    : artifact.kind;
  switch (kind) {
    case 'markdown':
      return <Markdown text={text} />;
    case 'code':
      return (
        <CodeBlock
          code={text}
          language={artifact.language ?? uploadLanguage(artifact.title) ?? ''}
          streaming={false}
        />
      );
    case 'json':
      return <JsonTree text={text} />;
    case 'csv':
      return <CsvTable text={text} />;
    case 'mermaid':
      // Through the message renderer: mermaid loads lazily and runs in its strict mode.
      return <Markdown text={`\`\`\`mermaid\n${text}\n\`\`\``} />;
    default:
      return <pre className="artifact-text">{text}</pre>;
  }
}

function Comparison({ artifact, to }: { artifact: Artifact; to: number }): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const [from, setFrom] = useState(Math.max(1, to - 1));
  const diff = useQuery({
    queryKey: ['artifact-diff', artifact.id, from, to],
    queryFn: () => api.diffArtifact(artifact.id, from, to),
    staleTime: Infinity,
  });
  return (
    <div className="artifact-comparison">
      <label className="artifact-field">
        {t('artifacts.compareWith')}
        <select
          value={from}
          onChange={(event) => setFrom(Number(event.target.value))}
          data-testid="diff-from"
        >
          {Array.from({ length: artifact.version }, (_unused, index) => index + 1).map((version) => (
            <option key={version} value={version}>
              v{version}
            </option>
          ))}
        </select>
      </label>
      {diff.isError && <p className="field-error">{String(diff.error)}</p>}
      {diff.data !== undefined && <DiffView diff={diff.data} />}
    </div>
  );
}

/**
 * One artifact in the right column (spec §4.4 viewer): rendered by kind (Markdown through the
 * message sanitizer, code highlighted, CSV as a table, JSON as a tree, mermaid, html/svg/docx in a
 * sandbox, images, PDFs in the browser's viewer), a version picker, a diff against any earlier
 * version, download.
 */
export function ArtifactViewer({ artifactId }: { artifactId: string }): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const close = useWorkbenchUi((state) => state.closeArtifact);
  const pinned = useWorkbenchUi((state) => state.artifactVersion);
  const setVersion = useWorkbenchUi((state) => state.setArtifactVersion);
  const [comparing, setComparing] = useState(false);
  const detail = useQuery({
    queryKey: ['artifact', artifactId],
    queryFn: () => api.getArtifact(artifactId),
  });
  const artifact = detail.data?.artifact;
  const version = pinned ?? artifact?.version ?? 1;
  // A diff needs an earlier version: v1 alone (or a stale toggle) shows the rendered view.
  const showDiff = comparing && version > 1;
  return (
    <div className="artifact-viewer" data-testid="artifact-viewer">
      <div className="artifact-viewer-header">
        <button type="button" className="icon-button" aria-label={t('workbench.back')} onClick={close}>
          <ChevronLeftIcon size={16} />
        </button>
        <span className="artifact-title">{artifact?.title ?? ''}</span>
        {artifact !== undefined && artifact.kind !== 'upload' && (
          <>
            <label className="artifact-field">
              <span className="visually-hidden">{t('artifacts.version')}</span>
              <select
                value={version}
                data-testid="artifact-version"
                onChange={(event) => {
                  const chosen = Number(event.target.value);
                  setVersion(chosen === artifact.version ? undefined : chosen);
                }}
              >
                {(detail.data?.versions ?? []).map((entry) => (
                  <option key={entry.version} value={entry.version}>
                    {t('artifacts.versionOption', { version: entry.version, change: entry.change })}
                  </option>
                ))}
              </select>
            </label>
            {artifact.version > 1 && (
              <button
                type="button"
                className={`button small${showDiff ? ' active' : ''}`}
                aria-pressed={showDiff}
                data-testid="artifact-compare"
                onClick={() => setComparing(!showDiff)}
              >
                {t('artifacts.diff')}
              </button>
            )}
          </>
        )}
        {artifact !== undefined && (
          <a
            className="button small"
            href={api.artifactDownloadUrl(artifact.id, artifact.kind === 'upload' ? undefined : version)}
            download
          >
            {t('artifacts.download')}
          </a>
        )}
        <button
          type="button"
          className="icon-button"
          aria-label={t('artifacts.refresh')}
          onClick={() => void queryClient.invalidateQueries({ queryKey: ['artifact', artifactId] })}
        >
          ↻
        </button>
      </div>
      <div className="artifact-content">
        {detail.isError && <p className="field-error">{String(detail.error)}</p>}
        {artifact !== undefined &&
          (showDiff ? (
            <Comparison artifact={artifact} to={version} />
          ) : (
            <ArtifactBody artifact={artifact} version={version} />
          ))}
      </div>
    </div>
  );
}
