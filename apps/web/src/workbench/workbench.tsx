import { useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import { useTranslation, type MessageKey } from '../i18n/index.ts';
import {
  CheckSquareIcon,
  CloseIcon,
  FileIcon,
  ListIcon,
  MoreIcon,
  SparkIcon,
  UsersIcon,
} from '../icons/index.ts';
import {
  isPanelTab,
  moveInOrder,
  useLayout,
  WORKBENCH_TABS,
  type BuiltinTab,
  type PanelTabId,
  type WorkbenchTab,
} from '../layout/index.ts';
import { PanelTab, usePanels, usePanelTitle } from '../ui-schema/index.ts';
import { Menu, type MenuItem } from '../ui/index.ts';
import { AgentsTab } from '../agent-tracker/index.ts';
import { DocumentTab } from '../knowledge/index.ts';
import { ArtifactsTab } from '../artifacts/index.ts';
import { PlanTab } from './plan-tab.tsx';
import { fitTabs, type TabMeasure, type TabShape } from './tab-fit.ts';
import { TodosTab } from './todos-tab.tsx';
import './workbench.css';

const TAB_LABELS: Record<BuiltinTab, MessageKey> = {
  plan: 'workbench.plan',
  todos: 'workbench.todos',
  artifacts: 'workbench.artifacts',
  agents: 'workbench.agents',
  document: 'workbench.document',
};
const TAB_ICONS: Record<BuiltinTab, ReactElement> = {
  plan: <ListIcon size={15} />,
  todos: <CheckSquareIcon size={15} />,
  artifacts: <FileIcon size={15} />,
  agents: <UsersIcon size={15} />,
  document: <FileIcon size={15} />,
};
/** A tab's element id: panel ids may hold characters a CSS selector would need escaped. */
function domId(tab: WorkbenchTab): string {
  return tab.replaceAll(/[^A-Za-z0-9_-]/g, '-');
}

/**
 * The right column (spec §4.4 Workbench): tabs Plan / Todos / Artifacts / Agents and one per
 * extension panel, in the person's order, hidden ones left out (both persisted; a new panel comes
 * last); arrow keys move between tabs. The strip fits the column's width (decision 0037): labels
 * while they fit, then icons for the inactive tabs, then a "More" menu; extension panels are in
 * that menu unless active.
 */
export function Workbench(): ReactElement {
  const t = useTranslation();
  const layout = useLayout();
  const tabList = useRef<HTMLDivElement>(null);
  const panels = usePanels().data ?? [];
  const panelTitle = usePanelTitle();
  const panelTabs = panels.map((panel): PanelTabId => `panel:${panel.id}`);
  const order: WorkbenchTab[] = [
    ...layout.tabOrder.filter((tab) => !isPanelTab(tab) || panelTabs.includes(tab)),
    ...panelTabs.filter((tab) => !layout.tabOrder.includes(tab)),
    // A built-in tab newer than the saved order (the document viewer) comes last.
    ...WORKBENCH_TABS.filter((tab) => !layout.tabOrder.includes(tab)),
  ];
  const labelOf = (tab: WorkbenchTab): string =>
    isPanelTab(tab)
      ? (() => {
          const panel = panels.find((item) => `panel:${item.id}` === tab);
          return panel === undefined ? tab : panelTitle(panel);
        })()
      : t(TAB_LABELS[tab]);
  const visible = order.filter((tab) => !layout.hiddenTabs.includes(tab));
  const active = visible.includes(layout.activeTab) ? layout.activeTab : visible[0];
  const measurer = useRef<HTMLDivElement>(null);
  const [shapes, setShapes] = useState<ReadonlyMap<string, TabShape>>(new Map());
  const visibleKey = visible.map((tab) => `${tab}=${labelOf(tab)}`).join('|');
  useLayoutEffect(() => {
    const strip = tabList.current;
    const sizes = measurer.current;
    if (strip === null || sizes === null) return undefined;
    const fit = (): void => {
      const measures = new Map<string, TabMeasure>();
      for (const tab of visible) {
        const full = sizes.querySelector<HTMLElement>(`[data-measure="full:${domId(tab)}"]`);
        const icon = sizes.querySelector<HTMLElement>(`[data-measure="icon:${domId(tab)}"]`);
        if (full === null || icon === null) continue;
        measures.set(tab, {
          full: Math.ceil(full.getBoundingClientRect().width),
          icon: Math.ceil(icon.getBoundingClientRect().width),
          extension: isPanelTab(tab),
        });
      }
      const more = sizes.querySelector<HTMLElement>('[data-measure="more"]');
      const next = fitTabs(
        visible,
        measures,
        active,
        strip.clientWidth,
        Number.parseFloat(getComputedStyle(strip).columnGap) || 0,
        Math.ceil(more?.getBoundingClientRect().width ?? 32),
      );
      setShapes((previous) =>
        [...next].every(([tab, shape]) => previous.get(tab) === shape) && previous.size === next.size
          ? previous
          : next,
      );
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(strip.parentElement ?? strip);
    return () => observer.disconnect();
    // visibleKey stands for `visible` and the labels (a new array each render).
  }, [visibleKey, active]);
  const shapeOf = (tab: WorkbenchTab): TabShape =>
    shapes.get(tab) ?? (isPanelTab(tab) && tab !== active ? 'more' : 'full');
  const inStrip = visible.filter((tab) => shapeOf(tab) !== 'more');
  const inMore = visible.filter((tab) => shapeOf(tab) === 'more');
  const iconOf = (tab: WorkbenchTab): ReactElement =>
    isPanelTab(tab) ? <SparkIcon size={15} /> : TAB_ICONS[tab];

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (active === undefined) return;
    const index = inStrip.indexOf(active);
    const next =
      event.key === 'ArrowRight'
        ? inStrip[(index + 1) % inStrip.length]
        : event.key === 'ArrowLeft'
          ? inStrip[(index - 1 + inStrip.length) % inStrip.length]
          : event.key === 'Home'
            ? inStrip[0]
            : event.key === 'End'
              ? inStrip.at(-1)
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    layout.setActiveTab(next);
    tabList.current?.querySelector<HTMLElement>(`#workbench-tab-${domId(next)}`)?.focus();
  };

  const menuItems: MenuItem[] = order.flatMap((tab) => {
    const label = labelOf(tab);
    const hidden = layout.hiddenTabs.includes(tab);
    const index = order.indexOf(tab);
    const items: MenuItem[] = [
      {
        label: `${hidden ? '☐' : '☑'} ${t('workbench.show', { tab: label })}`,
        onSelect: () => layout.setTabHidden(tab, !hidden),
      },
    ];
    if (index > 0)
      items.push({
        label: t('workbench.moveLeft', { tab: label }),
        onSelect: () => layout.setTabOrder(moveInOrder(order, tab, -1)),
      });
    if (index < order.length - 1)
      items.push({
        label: t('workbench.moveRight', { tab: label }),
        onSelect: () => layout.setTabOrder(moveInOrder(order, tab, 1)),
      });
    return items;
  });

  return (
    <div className="workbench">
      <div className="workbench-header">
        <div
          className="workbench-tabs"
          role="tablist"
          aria-label={t('workbench.tabs')}
          ref={tabList}
          onKeyDown={onKeyDown}
        >
          {inStrip.map((tab) => (
            <button
              key={tab}
              id={`workbench-tab-${domId(tab)}`}
              type="button"
              role="tab"
              aria-selected={tab === active}
              aria-controls={`workbench-panel-${domId(tab)}`}
              aria-label={labelOf(tab)}
              title={labelOf(tab)}
              tabIndex={tab === active ? 0 : -1}
              className={`workbench-tab${tab === active ? ' active' : ''}`}
              data-shape={shapeOf(tab)}
              onClick={() => layout.setActiveTab(tab)}
            >
              <span className="workbench-tab-icon">{iconOf(tab)}</span>
              {shapeOf(tab) === 'full' && <span className="workbench-tab-label">{labelOf(tab)}</span>}
            </button>
          ))}
          {inMore.length > 0 && (
            <Menu
              label={t('workbench.moreTabs')}
              icon={<span className="workbench-more-label">{t('workbench.more')}</span>}
              items={inMore.map((tab) => ({ label: labelOf(tab), onSelect: () => layout.setActiveTab(tab) }))}
            />
          )}
        </div>
        <div className="workbench-tab-measure" ref={measurer} aria-hidden="true">
          {visible.map((tab) => (
            <span key={tab}>
              <span className="workbench-tab" data-measure={`full:${domId(tab)}`}>
                <span className="workbench-tab-icon">{iconOf(tab)}</span>
                <span className="workbench-tab-label">{labelOf(tab)}</span>
              </span>
              <span className="workbench-tab" data-measure={`icon:${domId(tab)}`}>
                <span className="workbench-tab-icon">{iconOf(tab)}</span>
              </span>
            </span>
          ))}
          <span className="icon-button" data-measure="more">
            <span className="workbench-more-label">{t('workbench.more')}</span>
          </span>
        </div>
        <Menu label={t('workbench.customize')} icon={<MoreIcon size={16} />} items={menuItems} />
        <button
          type="button"
          className="icon-button"
          aria-label={t('workbench.collapse')}
          onClick={layout.toggleRight}
        >
          <CloseIcon size={16} />
        </button>
      </div>
      {active !== undefined && (
        <div
          className="workbench-panel"
          role="tabpanel"
          id={`workbench-panel-${domId(active)}`}
          aria-labelledby={`workbench-tab-${domId(active)}`}
          tabIndex={0}
        >
          {isPanelTab(active) ? (
            <PanelTab panelId={active.slice('panel:'.length)} />
          ) : active === 'artifacts' ? (
            <ArtifactsTab />
          ) : active === 'plan' ? (
            <PlanTab />
          ) : active === 'todos' ? (
            <TodosTab />
          ) : active === 'document' ? (
            <DocumentTab />
          ) : (
            <AgentsTab />
          )}
        </div>
      )}
    </div>
  );
}
