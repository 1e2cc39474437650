import { useRef, type KeyboardEvent, type ReactElement } from 'react';
import { useTranslation, type MessageKey } from '../i18n/index.ts';
import { CheckSquareIcon, CloseIcon, FileIcon, ListIcon, MoreIcon, UsersIcon } from '../icons/index.ts';
import { useLayout, type WorkbenchTab } from '../layout/index.ts';
import { Menu, type MenuItem } from '../ui/index.ts';
import { AgentsTab } from '../agent-tracker/index.ts';
import { ArtifactsTab } from '../artifacts/index.ts';
import { PlanTab } from './plan-tab.tsx';
import { TodosTab } from './todos-tab.tsx';
import './workbench.css';

const TAB_LABELS: Record<WorkbenchTab, MessageKey> = {
  plan: 'workbench.plan',
  todos: 'workbench.todos',
  artifacts: 'workbench.artifacts',
  agents: 'workbench.agents',
};
const TAB_ICONS: Record<WorkbenchTab, ReactElement> = {
  plan: <ListIcon size={15} />,
  todos: <CheckSquareIcon size={15} />,
  artifacts: <FileIcon size={15} />,
  agents: <UsersIcon size={15} />,
};
/**
 * The right column (spec §4.4 Workbench): tabs Plan / Todos / Artifacts / Agents in the person's
 * order, hidden ones left out (both persisted); arrow keys move between tabs.
 */
export function Workbench(): ReactElement {
  const t = useTranslation();
  const layout = useLayout();
  const tabList = useRef<HTMLDivElement>(null);
  const visible = layout.tabOrder.filter((tab) => !layout.hiddenTabs.includes(tab));
  const active = visible.includes(layout.activeTab) ? layout.activeTab : visible[0];

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (active === undefined) return;
    const index = visible.indexOf(active);
    const next =
      event.key === 'ArrowRight'
        ? visible[(index + 1) % visible.length]
        : event.key === 'ArrowLeft'
          ? visible[(index - 1 + visible.length) % visible.length]
          : event.key === 'Home'
            ? visible[0]
            : event.key === 'End'
              ? visible.at(-1)
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    layout.setActiveTab(next);
    tabList.current?.querySelector<HTMLElement>(`#workbench-tab-${next}`)?.focus();
  };

  const menuItems: MenuItem[] = layout.tabOrder.flatMap((tab) => {
    const label = t(TAB_LABELS[tab]);
    const hidden = layout.hiddenTabs.includes(tab);
    const index = layout.tabOrder.indexOf(tab);
    const items: MenuItem[] = [
      {
        label: `${hidden ? '☐' : '☑'} ${t('workbench.show', { tab: label })}`,
        onSelect: () => layout.setTabHidden(tab, !hidden),
      },
    ];
    if (index > 0)
      items.push({ label: t('workbench.moveLeft', { tab: label }), onSelect: () => layout.moveTab(tab, -1) });
    if (index < layout.tabOrder.length - 1)
      items.push({ label: t('workbench.moveRight', { tab: label }), onSelect: () => layout.moveTab(tab, 1) });
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
          {visible.map((tab) => (
            <button
              key={tab}
              id={`workbench-tab-${tab}`}
              type="button"
              role="tab"
              aria-selected={tab === active}
              aria-controls={`workbench-panel-${tab}`}
              tabIndex={tab === active ? 0 : -1}
              className={`workbench-tab${tab === active ? ' active' : ''}`}
              onClick={() => layout.setActiveTab(tab)}
            >
              <span className="workbench-tab-icon">{TAB_ICONS[tab]}</span>
              <span className="workbench-tab-label">{t(TAB_LABELS[tab])}</span>
            </button>
          ))}
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
          id={`workbench-panel-${active}`}
          aria-labelledby={`workbench-tab-${active}`}
          tabIndex={0}
        >
          {active === 'artifacts' ? (
            <ArtifactsTab />
          ) : active === 'plan' ? (
            <PlanTab />
          ) : active === 'todos' ? (
            <TodosTab />
          ) : (
            <AgentsTab />
          )}
        </div>
      )}
    </div>
  );
}
