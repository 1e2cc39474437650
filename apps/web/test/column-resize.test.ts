import { describe, expect, it } from 'vitest';
import { LEFT_COLUMN_LIMITS, keyboardResize, releaseDrag, resolveDrag } from '../src/layout/index.ts';

const limits = LEFT_COLUMN_LIMITS;

describe('left column drag (spec §4.4: min 220, max 420, ~40 px overshoot collapses)', () => {
  it('resizes within the limits and clamps at both ends', () => {
    expect(resolveDrag({ width: 272, collapsed: false }, 50, limits)).toEqual({
      width: 322,
      collapsed: false,
      willCollapse: false,
    });
    expect(resolveDrag({ width: 272, collapsed: false }, 400, limits).width).toBe(420);
    expect(resolveDrag({ width: 272, collapsed: false }, -80, limits)).toEqual({
      width: 220,
      collapsed: false,
      willCollapse: false,
    });
  });

  it('previews a collapse only once the pointer is more than 40 px past the minimum', () => {
    const start = { width: 260, collapsed: false };
    expect(resolveDrag(start, -(260 - 220 + 40), limits).willCollapse).toBe(false);
    expect(resolveDrag(start, -(260 - 220 + 41), limits).willCollapse).toBe(true);
  });

  it('collapses on release past the threshold and keeps the width to restore', () => {
    expect(releaseDrag({ width: 300, collapsed: false }, -130, limits)).toEqual({
      width: 300,
      collapsed: true,
    });
    expect(releaseDrag({ width: 300, collapsed: false }, -100, limits)).toEqual({
      width: 220,
      collapsed: false,
    });
  });

  it('pulling the collapsed rail out past the minimum expands the column', () => {
    expect(releaseDrag({ width: 300, collapsed: true }, 100, limits)).toEqual({
      width: 300,
      collapsed: true,
    });
    expect(releaseDrag({ width: 300, collapsed: true }, 200, limits)).toEqual({
      width: 252,
      collapsed: false,
    });
  });

  it('keyboard: arrows resize by 16 px, shrinking below the minimum collapses, Enter toggles', () => {
    expect(keyboardResize({ width: 300, collapsed: false }, 'ArrowRight', limits, 1)).toEqual({
      width: 316,
      collapsed: false,
    });
    expect(keyboardResize({ width: 230, collapsed: false }, 'ArrowLeft', limits, 1)).toEqual({
      width: 230,
      collapsed: true,
    });
    expect(keyboardResize({ width: 230, collapsed: true }, 'Enter', limits, 1)).toEqual({
      width: 230,
      collapsed: false,
    });
    expect(keyboardResize({ width: 300, collapsed: false }, 'x', limits, 1)).toBeUndefined();
  });

  it('a right-hand column grows when dragged left', () => {
    expect(keyboardResize({ width: 300, collapsed: false }, 'ArrowLeft', limits, -1)).toEqual({
      width: 316,
      collapsed: false,
    });
  });
});
