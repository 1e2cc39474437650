import type { ComponentKind } from '../components/index.ts';

/**
 * Folder names (= component names) the file channel accepts: a letter or digit, then letters,
 * digits, `_` or `-`, at most 64 characters. The same set model APIs accept for tool names, so a
 * name that loads is a name every provider can send.
 *
 * @example
 * COMPONENT_NAME_PATTERN.test('word_count'); // true
 */
export const COMPONENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The entry file of every component folder (spec §5.1). @example join(directory, INDEX_FILE) */
export const INDEX_FILE = 'index.md';
/** The Agent Skills entry file, accepted in skill folders (see README-files.md). @example join(directory, SKILL_FILE) */
export const SKILL_FILE = 'SKILL.md';

/** Sub-folder of a layer that holds each kind. */
export const KIND_FOLDERS: Readonly<Record<ComponentKind, string>> = Object.freeze({
  tool: 'tools',
  skill: 'skills',
  plugin: 'plugins',
});

export const COMPONENT_KINDS: readonly ComponentKind[] = ['tool', 'skill', 'plugin'];

/** Entry files larger than this are skipped: an index.md is a description, not a data file. */
export const MAX_ENTRY_FILE_BYTES = 1024 * 1024;

/**
 * True when `name` is a valid component folder name.
 *
 * @example
 * isValidComponentName('grep'); // true
 * isValidComponentName('../x'); // false
 */
export function isValidComponentName(name: string): boolean {
  return COMPONENT_NAME_PATTERN.test(name);
}

/** The reason a name is invalid, in words a user can act on. */
export function describeInvalidName(name: string): string {
  if (name.length === 0) return 'the name is empty';
  if (name.length > 64) return `the name is ${String(name.length)} characters long (at most 64)`;
  return `the name ${JSON.stringify(name)} may contain only letters, digits, "_" and "-", and must start with a letter or digit`;
}
