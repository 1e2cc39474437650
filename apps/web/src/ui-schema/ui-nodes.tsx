import type { ReactElement } from 'react';
import {
  absolutePointer,
  childPointer,
  readPointer,
  resolveArguments,
  resolveText,
  type DocRefNode,
  type UiChildren,
  type UiNode,
  type UnsupportedNode,
  type WidgetNode,
} from '@youyou/contracts';
import { useTranslation } from '../i18n/index.ts';
import { FileIcon } from '../icons/index.ts';
import { Markdown } from '../markdown/index.ts';
import { useWorkbenchUi } from '../workbench-ui/index.ts';
import { UiActionButton } from './ui-action-button.tsx';
import { ChartLiteView } from './ui-chart.tsx';
import { scopeOf, useUiSurface } from './ui-context.ts';
import {
  CheckBoxView,
  ChoicePickerView,
  DateTimeInputView,
  FormView,
  SliderView,
  TextFieldView,
} from './ui-inputs.tsx';

const TEXT_TAGS = { h1: 'h3', h2: 'h4', h3: 'h5', h4: 'h6', h5: 'h6', caption: 'p', body: 'p' } as const;

/** A visible stand-in for a component this renderer cannot draw: it names it and says why. */
export function UnsupportedView({ node }: { node: UnsupportedNode }): ReactElement {
  const t = useTranslation();
  return (
    <div className="ui-unsupported" role="note" data-testid="ui-unsupported" data-component={node.original}>
      <span className="ui-unsupported-title">{t('ui.unsupported', { component: node.original })}</span>
      <span className="ui-unsupported-reason">{node.reason}</span>
    </div>
  );
}

/** A custom widget of the host, or the visible placeholder when the host has none of that name. */
function WidgetView({ node }: { node: WidgetNode }): ReactElement {
  const surface = useUiSurface();
  const Widget = Object.hasOwn(surface.widgets, node.widget) ? surface.widgets[node.widget] : undefined;
  if (Widget === undefined)
    return (
      <UnsupportedView
        node={{
          component: 'Unsupported',
          original: `Widget ${node.widget}`,
          reason: 'this view has no widget of that name',
        }}
      />
    );
  return <Widget props={node.props ?? {}} />;
}

/** Children in order, or a template drawn once per item of a list in the data model. */
function ChildrenView(props: { childNodes: UiChildren; base: string; emptyText?: string }): ReactElement {
  const surface = useUiSurface();
  if (Array.isArray(props.childNodes)) {
    return (
      <>
        {props.childNodes.map((child, index) => (
          <UiNodeView key={child.id ?? index} node={child} base={props.base} />
        ))}
      </>
    );
  }
  const pointer = absolutePointer(props.childNodes.path, { base: props.base });
  const items = readPointer(surface.data, pointer);
  const list = Array.isArray(items) ? items : [];
  if (list.length === 0 && props.emptyText !== undefined && props.emptyText !== '')
    return <p className="ui-empty">{props.emptyText}</p>;
  const template = props.childNodes.template;
  return (
    <>
      {list.map((_item, index) => (
        <UiNodeView key={index} node={template} base={childPointer(pointer, String(index))} />
      ))}
    </>
  );
}

function DocRefView({ node, base }: { node: DocRefNode; base: string }): ReactElement {
  const surface = useUiSurface();
  const openArtifact = useWorkbenchUi((state) => state.openArtifact);
  const scope = scopeOf(surface, base);
  const title = resolveText(node.title, scope, surface.locale);
  const excerpt = node.excerpt === undefined ? undefined : resolveText(node.excerpt, scope, surface.locale);
  const body = (
    <>
      <FileIcon size={15} />
      <span className="ui-doc-ref-title">{title}</span>
      {excerpt !== undefined && excerpt !== '' && <span className="ui-doc-ref-excerpt">{excerpt}</span>}
    </>
  );
  if ('url' in node.target) {
    return (
      <a className="ui-doc-ref" href={node.target.url} target="_blank" rel="noopener noreferrer nofollow">
        {body}
      </a>
    );
  }
  if ('artifact' in node.target) {
    const artifactId = node.target.artifact;
    return (
      <button type="button" className="ui-doc-ref" onClick={() => openArtifact(artifactId)}>
        {body}
      </button>
    );
  }
  return (
    <span className="ui-doc-ref" data-document={node.target.document}>
      {body}
    </span>
  );
}

/**
 * One node of the vocabulary, drawn. Everything is React elements and text: nothing from a
 * document reaches the page as HTML or script (Markdown goes through the sanitized renderer).
 */
export function UiNodeView({ node, base }: { node: UiNode; base: string }): ReactElement {
  const surface = useUiSurface();
  const t = useTranslation();
  const scope = scopeOf(surface, base);
  const text = (value: Parameters<typeof resolveText>[0]) => resolveText(value, scope, surface.locale);
  switch (node.component) {
    case 'Text': {
      const Tag = TEXT_TAGS[node.variant ?? 'body'];
      return <Tag className={`ui-text ui-text-${node.variant ?? 'body'}`}>{text(node.text)}</Tag>;
    }
    case 'Markdown':
      return (
        <div className="ui-markdown">
          <Markdown text={text(node.text)} />
        </div>
      );
    case 'Column':
    case 'Row':
      return (
        <div
          className={`ui-${node.component.toLowerCase()}`}
          data-align={node.align}
          data-justify={node.justify}
        >
          <ChildrenView childNodes={node.children} base={base} />
        </div>
      );
    case 'List':
      return (
        <div className="ui-list" role="list" data-direction={node.direction ?? 'vertical'}>
          <ChildrenView
            childNodes={node.children}
            base={base}
            {...(node.emptyText === undefined ? {} : { emptyText: text(node.emptyText) })}
          />
        </div>
      );
    case 'Card':
      return (
        <div className="ui-card">
          <UiNodeView node={node.child} base={base} />
        </div>
      );
    case 'Section':
      return (
        <section className="ui-section" data-id={node.id}>
          <h4 className="ui-section-title">{text(node.title)}</h4>
          {node.description !== undefined && (
            <p className="ui-section-description">{text(node.description)}</p>
          )}
          <div className="ui-section-body">
            <ChildrenView childNodes={node.children} base={base} />
          </div>
        </section>
      );
    case 'Divider':
      return <hr className="ui-divider" data-axis={node.axis ?? 'horizontal'} />;
    case 'KeyValue':
      return (
        <dl className="ui-kv">
          {node.items.map((item, index) => (
            <div key={index} className="ui-kv-row">
              <dt>{text(item.label)}</dt>
              <dd>{text(item.value)}</dd>
            </div>
          ))}
        </dl>
      );
    case 'Button':
      return (
        <UiActionButton
          label={text(node.label)}
          variant={node.variant}
          action={node.action}
          argumentsOf={() => resolveArguments(node.action.arguments, scopeOf(surface, base))}
        />
      );
    case 'Actions':
      return (
        <div className="ui-actions" role="group" aria-label={t('ui.actions')}>
          {node.actions.map((item, index) => (
            <UiActionButton
              key={index}
              label={text(item.label)}
              variant={item.variant}
              action={item.action}
              argumentsOf={() => resolveArguments(item.action.arguments, scopeOf(surface, base))}
            />
          ))}
        </div>
      );
    case 'TextField':
      return <TextFieldView node={node} base={base} />;
    case 'CheckBox':
      return <CheckBoxView node={node} base={base} />;
    case 'ChoicePicker':
      return <ChoicePickerView node={node} base={base} />;
    case 'DateTimeInput':
      return <DateTimeInputView node={node} base={base} />;
    case 'Slider':
      return <SliderView node={node} base={base} />;
    case 'Form':
      return <FormView node={node} base={base} />;
    case 'DocRef':
      return <DocRefView node={node} base={base} />;
    case 'ChartLite':
      return <ChartLiteView node={node} base={base} />;
    case 'Widget':
      return <WidgetView node={node} />;
    case 'Unsupported':
      return <UnsupportedView node={node} />;
  }
}
