import type { FSWatcher } from 'node:fs';
import type { ToolHandler } from '@youyou/agent';
import type { ExtensionPermissions, ExtensionProblem, InstalledExtension } from '@youyou/contracts';
import { countsOf, type LoadedExtension } from './extension-loader.ts';
import type { ExtensionRecord } from './extension-repository.ts';

/** An installed extension as the host holds it. */
export interface Installed {
  record: ExtensionRecord;
  /** The last version that loaded without a problem; undefined when none did (it stays inactive). */
  loaded: LoadedExtension | undefined;
  /** Problems of the last load or reload. */
  problems: ExtensionProblem[];
  reloadedAt: number | null;
  /** Handlers of its tools, one per name, kept across reloads. */
  handlers: Map<string, ToolHandler>;
  watcher: FSWatcher | undefined;
  timer: NodeJS.Timeout | undefined;
  pendingRestart: boolean;
}

/** A freshly installed or started entry: nothing loaded, watched or registered yet. */
export function entryOf(record: ExtensionRecord): Installed {
  return {
    record,
    loaded: undefined,
    problems: [],
    reloadedAt: null,
    handlers: new Map(),
    watcher: undefined,
    timer: undefined,
    pendingRestart: false,
  };
}

/** Enabled and loaded: what it provides is registered. */
export function isActive(entry: Installed): boolean {
  return entry.record.state === 'enabled' && entry.loaded !== undefined;
}

/** The same permissions, whatever the order of their lists. */
export function samePermissions(a: ExtensionPermissions, b: ExtensionPermissions): boolean {
  const normal = (permissions: ExtensionPermissions) =>
    JSON.stringify({
      network: [...permissions.network.domains].sort(),
      tools: [...permissions.tools.execute].sort(),
      data: [...permissions.data.scopes].sort(),
    });
  return normal(a) === normal(b);
}

/** An installed extension as the API shows it. */
export function viewOf(entry: Installed): InstalledExtension {
  const { record } = entry;
  return {
    id: record.id,
    version: entry.loaded?.manifest.version ?? record.version,
    api_version: record.apiVersion,
    name: record.manifest.name,
    description: record.manifest.description,
    state: record.state,
    permissions: record.permissions,
    counts: entry.loaded === undefined ? {} : countsOf(entry.loaded),
    installed_at: new Date(record.installedAt).toISOString(),
    updated_at: new Date(record.updatedAt).toISOString(),
    problems: entry.problems,
    reloaded_at: entry.reloadedAt === null ? null : new Date(entry.reloadedAt).toISOString(),
    pending_restart: entry.pendingRestart,
  };
}
