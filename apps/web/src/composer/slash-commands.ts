import type { ComponentEntry } from '@youyou/contracts';
import type { MessageKey } from '../i18n/index.ts';

/** An entry of the `/` palette: a skill (sent with the message) or a command (run by the UI). */
export type PaletteEntry =
  | { kind: 'skill'; name: string; description: string }
  | { kind: 'command'; name: string; descriptionKey: MessageKey };

export const BUILT_IN_COMMANDS: readonly PaletteEntry[] = [
  { kind: 'command', name: 'new', descriptionKey: 'command.new' },
  { kind: 'command', name: 'model', descriptionKey: 'command.model' },
  { kind: 'command', name: 'settings', descriptionKey: 'command.settings' },
  { kind: 'command', name: 'clear', descriptionKey: 'command.clear' },
];

/** The word after `/` while the person is still typing it (`/com` → `com`), else undefined. */
export function slashQuery(text: string): string | undefined {
  const match = /^\/([\w-]*)$/.exec(text);
  return match?.[1];
}

/**
 * Palette entries matching what was typed: skills in effect (not overridden) first, then commands;
 * prefix matches before substring matches.
 *
 * @example
 * paletteEntries('co', components); // [{ kind: 'skill', name: 'commit', … }]
 */
export function paletteEntries(query: string, components: readonly ComponentEntry[]): PaletteEntry[] {
  const skills: PaletteEntry[] = components
    .filter(
      (component) => component.kind === 'skill' && component.enabled && component.overriddenBy === undefined,
    )
    .map((component) => ({ kind: 'skill', name: component.name, description: component.description }));
  const unique = new Map<string, PaletteEntry>();
  for (const entry of [...skills, ...BUILT_IN_COMMANDS])
    if (!unique.has(`${entry.kind}:${entry.name}`)) unique.set(`${entry.kind}:${entry.name}`, entry);
  const lower = query.toLowerCase();
  const all = [...unique.values()];
  const prefix = all.filter((entry) => entry.name.toLowerCase().startsWith(lower));
  const inside = all.filter(
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
