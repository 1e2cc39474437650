import type { CommandDescriptor } from '@youyou/contracts';

/** An entry of the `/` palette: a command of the server's registry (built-in, skill, macro, extension). */
export type PaletteEntry = CommandDescriptor;

/** The word after `/` while the person is still typing it (`/com` → `com`), else undefined. */
export function slashQuery(text: string): string | undefined {
  const match = /^\/([\w-]*)$/.exec(text);
  return match?.[1];
}

/**
 * Palette entries matching what was typed, in the registry's order (built-in, skills, macros,
 * extensions); prefix matches before substring matches.
 *
 * @example
 * paletteEntries('ex', commands); // [{ name: 'export', source: 'builtin', … }]
 */
export function paletteEntries(query: string, commands: readonly CommandDescriptor[]): PaletteEntry[] {
  const lower = query.toLowerCase();
  const prefix = commands.filter((entry) => entry.name.toLowerCase().startsWith(lower));
  const inside = commands.filter(
    (entry) => !entry.name.toLowerCase().startsWith(lower) && entry.name.toLowerCase().includes(lower),
  );
  return [...prefix, ...inside];
}

/**
 * Splits a message that starts with a skill invocation: `/commit fix the parser` with a known
 * `commit` skill → `{ skill: { name: 'commit', arguments: 'fix the parser' }, text: 'fix the parser' }`.
 */
export function parseSkillMessage(
  text: string,
  skillNames: ReadonlySet<string>,
): { skill?: { name: string; arguments?: string }; text: string } {
  const match = /^\/([A-Za-z0-9][\w-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const name = match?.[1];
  if (name === undefined || !skillNames.has(name)) return { text };
  const rest = (match?.[2] ?? '').trim();
  return { skill: rest === '' ? { name } : { name, arguments: rest }, text: rest };
}
