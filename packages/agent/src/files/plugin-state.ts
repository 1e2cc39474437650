import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AgentError } from '../errors/index.ts';
import { writeFileAtomic } from '../atomic-write/index.ts';
import { fileDiagnostic } from './file-diagnostic.ts';
import type { FileLoadDiagnostic } from './file-diagnostic.ts';

/**
 * Where runtime plugin toggles are kept: `{home}/plugin-state.json`.
 *
 * @example
 * join(resolveYouyouHome(), PLUGIN_STATE_FILE);
 */
export const PLUGIN_STATE_FILE = 'plugin-state.json';

/**
 * Runtime plugin toggles (spec §3.5: "前端运行时切换", the highest enablement priority). `global`
 * toggles apply in every project; `projects[cwd]` toggles apply to that working directory and
 * win over `global`. Kept in the home, not in `{cwd}/.youyou`, because they are one user's
 * choice, not part of a project others may share.
 *
 * @example
 * const state: PluginState = { version: 1, global: { audit: false }, projects: { '/work/app': { audit: true } } };
 */
export interface PluginState {
  version: 1;
  global: Record<string, boolean>;
  projects: Record<string, Record<string, boolean>>;
}

/**
 * Which toggle to change: every project's, or one working directory's.
 *
 * @example
 * const scope: PluginToggleScope = { scope: 'project', cwd: process.cwd() };
 */
export type PluginToggleScope = { scope: 'global' } | { scope: 'project'; cwd: string };

export function emptyPluginState(): PluginState {
  return { version: 1, global: {}, projects: {} };
}

/**
 * Reads `{home}/plugin-state.json`. A missing file is an empty state; a malformed one is a
 * diagnostic and an empty state, never fatal.
 *
 * @example
 * const { state } = await readPluginState(home);
 * pluginTogglesFor(state, process.cwd()); // { audit: false }
 */
export async function readPluginState(
  home: string,
): Promise<{ state: PluginState; diagnostics: FileLoadDiagnostic[] }> {
  const path = join(home, PLUGIN_STATE_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { state: emptyPluginState(), diagnostics: [] };
    return {
      state: emptyPluginState(),
      diagnostics: [fileDiagnostic({ path, reason: `could not be read: ${String(error)}`, kind: 'plugin' })],
    };
  }
  const state = parsePluginState(text);
  if (state === undefined) {
    return {
      state: emptyPluginState(),
      diagnostics: [
        fileDiagnostic({
          path,
          reason:
            'is not a valid plugin state file ({"version": 1, "global": {id: boolean}, "projects": {cwd: {id: boolean}}}); plugin toggles ignored',
          kind: 'plugin',
        }),
      ],
    };
  }
  return { state, diagnostics: [] };
}

/**
 * The toggles in effect for `cwd`: project toggles over global ones.
 *
 * @example
 * pluginTogglesFor({ version: 1, global: { a: false }, projects: { '/w': { a: true } } }, '/w'); // { a: true }
 */
export function pluginTogglesFor(state: PluginState, cwd: string): Record<string, boolean> {
  return { ...state.global, ...(state.projects[resolve(cwd)] ?? {}) };
}

/**
 * Sets (`true`/`false`) or clears (`undefined`) one plugin's runtime toggle and saves the file
 * atomically. It takes effect at the next session (spec §3.5).
 *
 * @example
 * await writePluginToggle(home, 'audit', false, { scope: 'project', cwd: process.cwd() });
 */
export async function writePluginToggle(
  home: string,
  pluginId: string,
  enabled: boolean | undefined,
  target: PluginToggleScope,
): Promise<PluginState> {
  const path = join(home, PLUGIN_STATE_FILE);
  const { state, diagnostics } = await readPluginState(home);
  if (diagnostics.length > 0) {
    throw new AgentError(
      'CONFIG_PARSE_ERROR',
      `${path} ${diagnostics[0]?.reason ?? 'is invalid'}; fix or delete it first`,
      {
        details: { path },
      },
    );
  }
  const toggles = target.scope === 'global' ? state.global : (state.projects[resolve(target.cwd)] ??= {});
  if (enabled === undefined) delete toggles[pluginId];
  else toggles[pluginId] = enabled;
  if (target.scope === 'project' && Object.keys(toggles).length === 0)
    delete state.projects[resolve(target.cwd)];
  await writeFileAtomic(path, `${JSON.stringify(state, null, 2)}\n`);
  return state;
}

function parsePluginState(text: string): PluginState | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value['version'] !== 1) return undefined;
  const global = value['global'] ?? {};
  const projects = value['projects'] ?? {};
  if (!isToggleMap(global) || !isRecord(projects)) return undefined;
  const state = emptyPluginState();
  Object.assign(state.global, global);
  for (const [cwd, toggles] of Object.entries(projects)) {
    if (!isToggleMap(toggles)) return undefined;
    state.projects[cwd] = { ...toggles };
  }
  return state;
}

function isToggleMap(value: unknown): value is Record<string, boolean> {
  return isRecord(value) && Object.values(value).every((item) => typeof item === 'boolean');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
