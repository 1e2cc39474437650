// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT, moveInOrder, sanitizeLayout, useLayout } from '../src/layout/index.ts';

describe('layout store', () => {
  beforeEach(() => {
    localStorage.clear();
    useLayout.setState(DEFAULT_LAYOUT);
  });

  it('persists width and collapsed state to localStorage', () => {
    useLayout.getState().setLeft({ width: 333, collapsed: true });
    const stored = JSON.parse(localStorage.getItem('youyou.layout') ?? '{}') as {
      state: Record<string, unknown>;
    };
    expect(stored.state).toMatchObject({ leftWidth: 333, leftCollapsed: true });
  });

  it('moves and hides workbench tabs', () => {
    useLayout.getState().moveTab('artifacts', -1);
    expect(useLayout.getState().tabOrder).toEqual(['plan', 'artifacts', 'todos', 'agents', 'document']);
    useLayout.getState().setTabHidden('plan', true);
    expect(useLayout.getState().hiddenTabs).toEqual(['plan']);
    useLayout.getState().setTabHidden('plan', false);
    expect(useLayout.getState().hiddenTabs).toEqual([]);
  });

  it('moveInOrder stays put at the ends', () => {
    expect(moveInOrder(['a', 'b'], 'a', -1)).toEqual(['a', 'b']);
    expect(moveInOrder(['a', 'b'], 'a', 1)).toEqual(['b', 'a']);
  });

  it('sanitizes what the server or old storage holds: clamps widths, drops unknown tabs', () => {
    expect(
      sanitizeLayout({
        leftWidth: 5000,
        leftCollapsed: 'yes',
        tabOrder: ['plan', 'x'],
        hiddenTabs: ['todos', 'x'],
      }),
    ).toEqual({
      leftWidth: 420,
      hiddenTabs: ['todos'],
    });
  });

  it('keeps extension panel tabs in the order, the hidden list and as the active tab', () => {
    expect(
      sanitizeLayout({
        tabOrder: ['panel:example.weather', 'plan', 'todos', 'artifacts', 'agents', 'panel:'],
        hiddenTabs: ['panel:example.notes'],
        activeTab: 'panel:example.weather',
      }),
    ).toEqual({
      tabOrder: ['panel:example.weather', 'plan', 'todos', 'artifacts', 'agents', 'document'],
      hiddenTabs: ['panel:example.notes'],
      activeTab: 'panel:example.weather',
    });
    // An order that lost a built-in tab is not taken.
    expect(sanitizeLayout({ tabOrder: ['panel:a', 'plan', 'todos', 'artifacts'] })).toEqual({});
    useLayout.getState().setTabOrder(['plan', 'panel:a', 'todos', 'artifacts', 'agents', 'panel:a']);
    expect(useLayout.getState().tabOrder).toEqual(['plan', 'panel:a', 'todos', 'artifacts', 'agents']);
  });
});
