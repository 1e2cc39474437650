import { useEffect, useState, type CSSProperties, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from '../i18n/use-translation.ts';
import { ColumnDivider } from './column-divider.tsx';
import { LEFT_COLUMN_LIMITS, RIGHT_COLUMN_LIMITS } from './column-resize.ts';
import { isLeftOpen, isRightOpen, useLayout, viewportOf } from './layout-store.ts';
import './app-shell.css';

export interface AppShellProps {
  left: (collapsed: boolean) => ReactNode;
  middle: ReactNode;
  right: ReactNode;
  overlay?: ReactNode;
}

/** Keeps the layout store's viewport class in step with the window. */
function useViewportTracking(): void {
  const setViewport = useLayout((state) => state.setViewport);
  useEffect(() => {
    const update = (): void => setViewport(viewportOf(window.innerWidth));
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [setViewport]);
}

/**
 * The three columns (spec §1.1, §4.4): projects and conversations, the conversation, the
 * workbench. Widths and collapse come from the layout store; a drag previews without writing.
 * Below 1200 px the right column floats over the conversation and the left one shows its rail;
 * below 900 px an opened left column floats too, so the conversation keeps a readable width.
 */
export function AppShell({ left, middle, right, overlay }: AppShellProps): ReactElement {
  const t = useTranslation();
  useViewportTracking();
  const layout = useLayout();
  const wide = layout.viewport === 'wide';
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
  const leftCollapsed = leftPreview?.collapsed ?? !isLeftOpen(layout);
  const leftFloats = layout.viewport === 'narrow' && !leftCollapsed;
  const leftWidth = leftCollapsed ? LEFT_COLUMN_LIMITS.rail : (leftPreview?.width ?? layout.leftWidth);
  const rightCollapsed = rightPreview?.collapsed ?? !isRightOpen(layout);
  const rightFloats = !wide && !rightCollapsed;
  const rightWidth = rightPreview?.width ?? layout.rightWidth;
  const dragging = leftPreview !== undefined || rightPreview !== undefined;
  const floating = leftFloats || rightFloats;
  const closeOverlays = layout.closeOverlays;
  // A drawer closes with Escape wherever the focus is: the button that opened it may be gone (the
  // rail gives way to the open column), leaving the focus on the body.
  useEffect(() => {
    if (!floating) return undefined;
    const onKey = (event: globalThis.KeyboardEvent): void => {
      if (event.key === 'Escape' && !event.defaultPrevented) closeOverlays();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [floating, closeOverlays]);
  const style = {
    // A floating left column leaves its rail in the grid.
    '--left-width': `${String(leftFloats ? LEFT_COLUMN_LIMITS.rail : leftWidth)}px`,
    '--left-float-width': `${String(leftWidth)}px`,
    '--right-width': rightCollapsed || rightFloats ? '0px' : `${String(rightWidth)}px`,
    '--right-float-width': `${String(rightWidth)}px`,
  } as CSSProperties;

  return (
    <div
      className={`app-shell viewport-${layout.viewport}${dragging ? ' dragging' : ''}`}
      style={style}
      data-viewport={layout.viewport}
      data-testid="app-shell"
    >
      <div
        className={`left-column${leftCollapsed ? ' collapsed' : ''}${leftFloats ? ' floating' : ''}${leftPreview?.willCollapse === true ? ' will-collapse' : ''}`}
        data-testid="left-column"
        data-collapsed={leftCollapsed}
      >
        {left(leftCollapsed)}
      </div>
      {wide && (
        <ColumnDivider
          label={t('nav.resize')}
          width={layout.leftWidth}
          collapsed={layout.leftCollapsed}
          limits={LEFT_COLUMN_LIMITS}
          direction={1}
          onPreview={setLeftPreview}
          onChange={layout.setLeft}
        />
      )}
      <main className="middle-column" aria-label={t('conversation.label')}>
        {middle}
      </main>
      {wide && !rightCollapsed && (
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
        className={`right-column${rightCollapsed ? ' collapsed' : ''}${rightFloats ? ' floating' : ''}`}
        aria-label={t('workbench.label')}
        hidden={rightCollapsed}
        data-testid="right-column"
      >
        {!rightCollapsed && right}
      </aside>
      {(leftFloats || rightFloats) && (
        <div
          className={`column-scrim${leftFloats ? '' : ' beside-left'}`}
          aria-hidden="true"
          onClick={layout.closeOverlays}
        />
      )}
      {overlay}
    </div>
  );
}
