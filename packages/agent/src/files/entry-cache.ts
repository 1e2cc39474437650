import type { EntryReadResult } from './front-matter-reader.ts';
import type { FrontMatterFailure } from './front-matter.ts';

/** What reading one entry file produced: a front matter failure, or the reader's result. */
export type EntryOutcome<T> =
  { parsed: false; failure: FrontMatterFailure } | { parsed: true; result: EntryReadResult<T> };

/** Entry files remembered; beyond this the least recently used are dropped. */
const MAX_ENTRIES = 4096;

const outcomes = new Map<string, EntryOutcome<unknown>>();

/**
 * Parses an entry file at most once per distinct content. The key holds the whole text (plus the
 * kind, folder and file name the readers depend on), so an edited file is never served stale; a
 * new session's rescan then costs file reads, not YAML parsing. Outcomes are frozen: every load
 * shares them.
 *
 * @example
 * const outcome = cachedEntryOutcome(`tool\0grep\0index.md\0${text}`, () => parseAndRead(text));
 */
export function cachedEntryOutcome<T>(key: string, compute: () => EntryOutcome<T>): EntryOutcome<T> {
  const cached = outcomes.get(key);
  if (cached !== undefined) {
    // Refresh its place in the least-recently-used order.
    outcomes.delete(key);
    outcomes.set(key, cached);
    return cached as EntryOutcome<T>;
  }
  const outcome = deepFreeze(compute());
  outcomes.set(key, outcome);
  if (outcomes.size > MAX_ENTRIES) {
    const oldest = outcomes.keys().next().value;
    if (oldest !== undefined) outcomes.delete(oldest);
  }
  return outcome;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
