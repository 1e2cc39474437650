import type { ArrayMerge } from '@youyou/contracts';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function mergeArrays(lower: unknown[], higher: unknown[], strategy: ArrayMerge): unknown[] {
  switch (strategy) {
    case 'replace':
      return higher;
    case 'append':
      return [...lower, ...higher];
    case 'union': {
      const seen = new Set(lower.map((item) => JSON.stringify(item)));
      return [...lower, ...higher.filter((item) => !seen.has(JSON.stringify(item)))];
    }
  }
}

/**
 * A higher layer's value over a lower one's (spec §4.9): objects merge key by key, all the way
 * down; arrays follow the setting's declared strategy (never concatenated implicitly); anything
 * else — null included, which is how a layer says "not set here" — replaces.
 *
 * @example
 * mergeValue({ a: 1, b: { c: 2 } }, { b: { d: 3 } }, 'replace'); // { a: 1, b: { c: 2, d: 3 } }
 * mergeValue(['x'], ['y'], 'union'); // ['x', 'y']
 */
export function mergeValue(lower: unknown, higher: unknown, strategy: ArrayMerge = 'replace'): unknown {
  if (Array.isArray(lower) && Array.isArray(higher)) return mergeArrays(lower, higher, strategy);
  if (isPlainObject(lower) && isPlainObject(higher)) {
    const merged: Record<string, unknown> = { ...lower };
    for (const [key, value] of Object.entries(higher)) {
      merged[key] = Object.hasOwn(lower, key) ? mergeValue(lower[key], value, strategy) : value;
    }
    return merged;
  }
  return higher;
}
