import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, useSyncExternalStore, type ReactElement } from 'react';
import { useServices } from '../services/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { ChevronLeftIcon, FileIcon } from '../icons/index.ts';
import { CodeBlock, Markdown } from '../markdown/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { formatSize } from '../parts/index.ts';

export interface ArtifactItem {
  id: string;
  name: string;
  mediaType: string;
  size: number;
}

const CODE_LANGUAGES: Readonly<Record<string, string>> = {
  ts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  jsx: 'jsx',
  py: 'python',
  json: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  sh: 'bash',
  go: 'go',
  rs: 'rust',
  java: 'java',
  c: 'c',
  cpp: 'cpp',
  css: 'css',
  html: 'html',
  sql: 'sql',
  toml: 'toml',
  csv: 'csv',
};

/** How the viewer shows a file: Markdown, code with a language, plain text, an image, or a link. */
export function viewerKind(
  name: string,
  mediaType: string,
): { kind: 'markdown' | 'code' | 'text' | 'image' | 'other'; language?: string } {
  const extension = /\.([\w]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  if (mediaType.startsWith('image/')) return { kind: 'image' };
  if (extension === 'md' || extension === 'markdown' || mediaType === 'text/markdown')
    return { kind: 'markdown' };
  const language = CODE_LANGUAGES[extension];
  if (language !== undefined) return { kind: 'code', language };
  if (mediaType.startsWith('text/') || extension === 'txt' || extension === 'log') return { kind: 'text' };
  return { kind: 'other' };
}

function ArtifactViewer({ item, onBack }: { item: ArtifactItem; onBack: () => void }): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const view = viewerKind(item.name, item.mediaType);
  const url = api.uploadUrl(item.id);
  const textual = view.kind === 'markdown' || view.kind === 'code' || view.kind === 'text';
  const content = useQuery({
    queryKey: ['upload-content', item.id],
    queryFn: async ({ signal }) => {
      const response = await fetch(url, { credentials: 'same-origin', signal });
      if (!response.ok) throw new Error(`${String(response.status)} ${response.statusText}`);
      return response.text();
    },
    enabled: textual,
    staleTime: Infinity,
  });
  return (
    <div className="artifact-viewer">
      <div className="artifact-viewer-header">
        <button type="button" className="icon-button" aria-label={t('workbench.back')} onClick={onBack}>
          <ChevronLeftIcon size={16} />
        </button>
        <span className="artifact-title">{item.name}</span>
      </div>
      <div className="artifact-content">
        {view.kind === 'image' && <img src={url} alt={item.name} />}
        {view.kind === 'other' && (
          <a href={url} target="_blank" rel="noopener noreferrer">
            {item.name}
          </a>
        )}
        {textual && content.isError && <p className="field-error">{String(content.error)}</p>}
        {textual && content.data !== undefined && view.kind === 'markdown' && (
          <Markdown text={content.data} />
        )}
        {textual && content.data !== undefined && view.kind === 'code' && (
          <CodeBlock code={content.data} language={view.language ?? ''} streaming={false} />
        )}
        {textual && content.data !== undefined && view.kind === 'text' && (
          <pre className="artifact-text">{content.data}</pre>
        )}
      </div>
    </div>
  );
}

/** The artifacts of the conversation: today, its uploads; later, documents the agent writes. */
export function ArtifactsTab(): ReactElement {
  const t = useTranslation();
  const { live } = useServices();
  const conversationId = useNavigation((state) => state.conversationId);
  const store = live.store(conversationId ?? '');
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const [openId, setOpenId] = useState<string>();
  const items = useMemo(() => {
    const found = new Map<string, ArtifactItem>();
    for (const run of snapshot.runs) {
      for (const part of run.user.parts) {
        if (part.type === 'attachment')
          found.set(part.upload_id, {
            id: part.upload_id,
            name: part.name,
            mediaType: part.media_type,
            size: part.size,
          });
      }
    }
    return [...found.values()];
  }, [snapshot.runs]);
  const open = items.find((item) => item.id === openId);
  if (open !== undefined) return <ArtifactViewer item={open} onBack={() => setOpenId(undefined)} />;
  if (items.length === 0) return <p className="empty-state">{t('workbench.artifactsEmpty')}</p>;
  return (
    <ul className="artifact-list">
      {items.map((item) => (
        <li key={item.id}>
          <button
            type="button"
            className="artifact-entry"
            onClick={() => setOpenId(item.id)}
            aria-label={t('workbench.open', { name: item.name })}
          >
            <FileIcon size={16} />
            <span className="artifact-title">{item.name}</span>
            <span className="attachment-size">{formatSize(item.size)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
