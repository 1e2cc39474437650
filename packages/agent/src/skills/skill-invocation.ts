const INVOCATION = /^\s*\/([A-Za-z0-9][A-Za-z0-9_.-]*)(?=\s|$)\s*([\s\S]*)$/;

export interface SkillInvocation {
  name: string;
  /** The text after `/name`, which stays the user's message. */
  rest: string;
}

/**
 * Reads a `/name` invocation at the start of the user's text. `//text` escapes a literal slash.
 * Only the start counts, so paths such as `/usr/bin` inside a sentence are never skills.
 *
 * @example
 * parseSkillInvocation('/commit fix the typo'); // { name: 'commit', rest: 'fix the typo' }
 */
export function parseSkillInvocation(text: string): SkillInvocation | undefined {
  if (/^\s*\/\//.test(text)) return undefined;
  const match = INVOCATION.exec(text);
  if (match === null) return undefined;
  return { name: match[1] ?? '', rest: match[2] ?? '' };
}

/** Removes the escape of a `//text` input so the model sees `/text`. */
export function unescapeSlash(text: string): string {
  return text.replace(/^(\s*)\/\//, '$1/');
}
