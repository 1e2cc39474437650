/** One step of a selection: a property, an index, or every child. */
type Segment = { key: string } | { index: number } | { all: true };

/**
 * Parses a JSONPath-style selection (`$`, `.name`, `['name']`, `[0]`, `[-1]`, `[*]`, `.*`); throws
 * with the reason for anything else (checked when an extension loads).
 *
 * @example
 * parseSelection('$.items[*].name'); // [{ key: 'items' }, { all: true }, { key: 'name' }]
 */
export function parseSelection(path: string): Segment[] {
  if (!path.startsWith('$')) throw new Error('a selection starts with $');
  const segments: Segment[] = [];
  let rest = path.slice(1);
  while (rest.length > 0) {
    let match: RegExpExecArray | null;
    if ((match = /^\.\*/.exec(rest)) !== null) segments.push({ all: true });
    else if ((match = /^\.([A-Za-z_$][\w$-]*)/.exec(rest)) !== null) segments.push({ key: match[1] ?? '' });
    else if ((match = /^\[\*\]/.exec(rest)) !== null) segments.push({ all: true });
    else if ((match = /^\[(-?\d+)\]/.exec(rest)) !== null) segments.push({ index: Number(match[1]) });
    else if ((match = /^\[(?:'([^']*)'|"([^"]*)")\]/.exec(rest)) !== null)
      segments.push({ key: match[1] ?? match[2] ?? '' });
    else throw new Error(`cannot read the selection at '${rest}'`);
    rest = rest.slice(match[0].length);
  }
  return segments;
}

/**
 * What a selection picks from a JSON value: one value, or (after a `[*]`) the list of every match.
 * Nothing matching gives `undefined`.
 *
 * @example
 * select({ items: [{ name: 'a' }, { name: 'b' }] }, '$.items[*].name'); // ['a', 'b']
 */
export function select(value: unknown, path: string): unknown {
  const segments = parseSelection(path);
  let current: unknown[] = [value];
  let many = false;
  for (const segment of segments) {
    const next: unknown[] = [];
    for (const item of current) {
      if ('all' in segment) {
        many = true;
        if (Array.isArray(item)) next.push(...item);
        else if (item !== null && typeof item === 'object') next.push(...Object.values(item));
      } else if ('index' in segment) {
        if (!Array.isArray(item)) continue;
        const at = segment.index < 0 ? item.length + segment.index : segment.index;
        if (at >= 0 && at < item.length) next.push(item[at]);
      } else if (
        item !== null &&
        typeof item === 'object' &&
        !Array.isArray(item) &&
        Object.hasOwn(item, segment.key)
      ) {
        next.push((item as Record<string, unknown>)[segment.key]);
      }
    }
    current = next;
  }
  return many ? current : current[0];
}
