/** How one tab shows in the strip: icon and label, icon only, or in the "More" menu. */
export type TabShape = 'full' | 'icon' | 'more';

export interface TabMeasure {
  /** Width with icon and label. */
  full: number;
  /** Width with the icon only. */
  icon: number;
  /** Extension panels live in the "More" menu unless active. */
  extension: boolean;
}

/**
 * Fits the tabs into `available` pixels (decision 0037): every tab with its label if they all fit;
 * else the active one keeps its label and the others show their icon; else trailing inactive tabs
 * move to the "More" menu (which costs `moreWidth`). Extension panels are always in the menu unless
 * active. The active tab is never in the menu nor without its label, so it is always readable.
 */
export function fitTabs(
  tabs: readonly string[],
  measures: ReadonlyMap<string, TabMeasure>,
  active: string | undefined,
  available: number,
  gap: number,
  moreWidth: number,
): Map<string, TabShape> {
  const shapes = new Map<string, TabShape>();
  for (const tab of tabs)
    shapes.set(tab, measures.get(tab)?.extension === true && tab !== active ? 'more' : 'full');
  const width = (): number => {
    let total = 0;
    let count = 0;
    let menu = false;
    for (const tab of tabs) {
      const shape = shapes.get(tab);
      const measure = measures.get(tab);
      if (shape === 'more' || measure === undefined) {
        menu = true;
        continue;
      }
      total += shape === 'full' ? measure.full : measure.icon;
      count += 1;
    }
    return total + Math.max(0, count - 1) * gap + (menu ? moreWidth + gap : 0);
  };
  if (width() <= available) return shapes;
  for (const tab of tabs) if (tab !== active && shapes.get(tab) === 'full') shapes.set(tab, 'icon');
  for (const tab of [...tabs].reverse()) {
    if (width() <= available) break;
    if (tab !== active) shapes.set(tab, 'more');
  }
  return shapes;
}
