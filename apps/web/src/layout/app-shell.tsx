import { useState, type CSSProperties, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from '../i18n/use-translation.ts';
import { ColumnDivider } from './column-divider.tsx';
import { LEFT_COLUMN_LIMITS, RIGHT_COLUMN_LIMITS } from './column-resize.ts';
import { useLayout } from './layout-store.ts';
import './app-shell.css';

export interface AppShellProps {
  left: (collapsed: boolean) => ReactNode;
  middle: ReactNode;
  right: ReactNode;
  overlay?: ReactNode;
}

/**
 * The three columns (spec §1.1, §4.4): projects and conversations, the conversation, the
 * workbench. Widths and collapse come from the layout store; a drag previews without writing.
 */
export function AppShell({ left, middle, right, overlay }: AppShellProps): ReactElement {
  const t = useTranslation();
  const layout = useLayout();
  const [leftPreview, setLeftPreview] = useState<{
    width: number;
    collapsed: boolean;
    willCollapse: boolean;
  }>();
  const [rightPreview, setRightPreview] = useState<{
    width: number;
    collapsed: boolean;
    willCollapse: boolean;
  }>();
  const leftCollapsed = leftPreview?.collapsed ?? layout.leftCollapsed;
  const leftWidth = leftCollapsed ? LEFT_COLUMN_LIMITS.rail : (leftPreview?.width ?? layout.leftWidth);
  const rightCollapsed = rightPreview?.collapsed ?? layout.rightCollapsed;
  const rightWidth = rightPreview?.width ?? layout.rightWidth;
  const dragging = leftPreview !== undefined || rightPreview !== undefined;
  const style = {
    '--left-width': `${String(leftWidth)}px`,
    '--right-width': rightCollapsed ? '0px' : `${String(rightWidth)}px`,
  } as CSSProperties;

  return (
    <div className={`app-shell${dragging ? ' dragging' : ''}`} style={style}>
      <div
        className={`left-column${leftCollapsed ? ' collapsed' : ''}${leftPreview?.willCollapse === true ? ' will-collapse' : ''}`}
        data-testid="left-column"
        data-collapsed={leftCollapsed}
      >
        {left(leftCollapsed)}
      </div>
      <ColumnDivider
        label={t('nav.resize')}
        width={layout.leftWidth}
        collapsed={layout.leftCollapsed}
        limits={LEFT_COLUMN_LIMITS}
        direction={1}
        onPreview={setLeftPreview}
        onChange={layout.setLeft}
      />
      <main className="middle-column" aria-label={t('conversation.label')}>
        {middle}
      </main>
      {!rightCollapsed && (
        <ColumnDivider
          label={t('workbench.label')}
          width={layout.rightWidth}
          collapsed={layout.rightCollapsed}
          limits={RIGHT_COLUMN_LIMITS}
          direction={-1}
          onPreview={setRightPreview}
          onChange={layout.setRight}
        />
      )}
      <aside
        className={`right-column${rightCollapsed ? ' collapsed' : ''}`}
        aria-label={t('workbench.label')}
        hidden={rightCollapsed}
        data-testid="right-column"
      >
        {!rightCollapsed && right}
      </aside>
      {overlay}
    </div>
  );
}
