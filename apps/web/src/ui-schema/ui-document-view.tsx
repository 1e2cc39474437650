import { useMemo, useRef, useState, type ReactElement } from 'react';
import { readUiDocument, writePointer, type UiAction, type UiActionResult } from '@youyou/contracts';
import { useTranslation, useResolvedLanguage } from '../i18n/index.ts';
import { AlertIcon } from '../icons/index.ts';
import { useServices } from '../services/index.ts';
import { ErrorBoundary } from '../ui/index.ts';
import { UiContext, type UiSurfaceContext, type UiWidgets } from './ui-context.ts';
import { UiNodeView } from './ui-nodes.tsx';
import './ui-schema.css';

/** Where a document is drawn: what its actions name as their surface. */
export interface UiSurfaceTarget {
  kind: 'panel' | 'card' | 'settings';
  id: string;
  /** `builtin`, `extension:<id>`, … */
  source: string;
  conversationId?: string;
}

/** A document that cannot be drawn at all: a visible box with the reasons, never a broken page. */
export function CouldNotRender(props: { problems: readonly string[] }): ReactElement {
  const t = useTranslation();
  return (
    <div className="ui-could-not-render" role="alert" data-testid="ui-could-not-render">
      <AlertIcon size={16} />
      <div>
        <p className="ui-could-not-render-title">{t('ui.couldNotRender')}</p>
        <ul>
          {props.problems.map((problem, index) => (
            <li key={index}>{problem}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}

let documentCounter = 0;
const NO_WIDGETS: UiWidgets = {};

function merged(
  own: Record<string, unknown> | undefined,
  over: Record<string, unknown> | undefined,
): unknown {
  return { ...own, ...over };
}

/**
 * The one generic renderer (spec §4.6): reads a UI document leniently (what it cannot draw becomes
 * a visible placeholder), keeps its data model, and runs its actions on the server through
 * `POST /api/extensions/actions`. A document that breaks anyway is caught here: the rest of the
 * page keeps working.
 *
 * @example
 * <UiDocumentView schema={panel.schema} data={panel.data} target={{ kind: 'panel', id: panel.id, source: panel.source }} />
 */
export function UiDocumentView(props: {
  schema: unknown;
  data?: Record<string, unknown> | undefined;
  target: UiSurfaceTarget;
  interactive?: boolean;
  /** The host's custom widgets (the settings centre's lists and editors); none for panels and cards. */
  widgets?: UiWidgets;
}): ReactElement {
  const t = useTranslation();
  // A tool may answer an action with a new document (a refreshed panel): it replaces the declared one.
  const [replacement, setReplacement] = useState<{ schema: unknown; version: number } | undefined>(undefined);
  const schema = replacement === undefined ? props.schema : replacement.schema;
  const reading = useMemo(() => readUiDocument(schema), [schema]);
  return (
    <div className="ui-document" data-testid="ui-document" data-surface={props.target.kind}>
      <ErrorBoundary
        fallback={(error, retry) => (
          <div>
            <CouldNotRender problems={[error.message]} />
            <button type="button" className="button" onClick={retry}>
              {t('ui.retry')}
            </button>
          </div>
        )}
      >
        {reading.ok ? (
          <DrawnDocument
            key={replacement?.version ?? 0}
            document={reading.document}
            data={props.data}
            target={props.target}
            interactive={props.interactive ?? true}
            widgets={props.widgets ?? NO_WIDGETS}
            onSchema={(next) =>
              setReplacement((current) => ({ schema: next, version: (current?.version ?? 0) + 1 }))
            }
          />
        ) : (
          <CouldNotRender
            problems={reading.problems.map((problem) => `${problem.path}: ${problem.message}`)}
          />
        )}
      </ErrorBoundary>
    </div>
  );
}

function DrawnDocument(props: {
  document: Extract<ReturnType<typeof readUiDocument>, { ok: true }>['document'];
  data: Record<string, unknown> | undefined;
  target: UiSurfaceTarget;
  interactive: boolean;
  widgets: UiWidgets;
  onSchema: (schema: unknown) => void;
}): ReactElement {
  const { api } = useServices();
  const language = useResolvedLanguage();
  const [data, setData] = useState<unknown>(() => merged(props.document.data, props.data));
  const idPrefix = useRef(`ui${++documentCounter}`).current;
  const { target, onSchema, widgets } = props;
  const context = useMemo<UiSurfaceContext>(
    () => ({
      data,
      setValue: (pointer, value) => setData((current: unknown) => writePointer(current, pointer, value)),
      run: async (action: UiAction, argumentsMap, confirmed): Promise<UiActionResult> => {
        // The settings centre's documents hold widgets and settings, no server actions.
        if (target.kind === 'settings') throw new Error('settings pages run no UI actions');
        const result = await api.runUiAction({
          source: target.source,
          surface: { kind: target.kind, id: target.id },
          action:
            'tool' in action
              ? { tool: action.tool, arguments: argumentsMap }
              : { command: action.command, arguments: argumentsMap },
          ...(target.conversationId === undefined ? {} : { conversation_id: target.conversationId }),
          ...(confirmed ? { confirmed: true } : {}),
        });
        if (result.schema !== undefined && !result.is_error) onSchema(result.schema);
        return result;
      },
      interactive: props.interactive,
      locale: language,
      idPrefix,
      widgets,
    }),
    [api, data, idPrefix, language, onSchema, props.interactive, target, widgets],
  );
  return (
    <UiContext.Provider value={context}>
      {props.document.title !== undefined && <h3 className="ui-document-title">{props.document.title}</h3>}
      <UiNodeView node={props.document.root} base="" />
    </UiContext.Provider>
  );
}
