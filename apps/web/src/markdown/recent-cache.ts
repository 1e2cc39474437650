/**
 * A map that keeps its `limit` most recently used entries: what was drawn once (a Markdown block,
 * a highlighted code block) is drawn again from here when its row comes back into view.
 *
 * @example
 * const blocks = recentCache<ReactElement>(2000);
 * let element = blocks.get(text);
 * if (element === undefined) blocks.set(text, (element = render(text)));
 */
export function recentCache<Value>(limit: number): {
  get(key: string): Value | undefined;
  set(key: string, value: Value): void;
} {
  const entries = new Map<string, Value>();
  return {
    get(key) {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      // Most recently used last: the oldest entry is the first to go.
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key, value) {
      entries.set(key, value);
      if (entries.size > limit) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
    },
  };
}
