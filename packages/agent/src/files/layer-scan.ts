import { open, readdir } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { ComponentKind } from '../components/index.ts';
import type { SkillDefinition } from '../skills/index.ts';
import {
  INDEX_FILE,
  KIND_FOLDERS,
  MAX_ENTRY_FILE_BYTES,
  SKILL_FILE,
  describeInvalidName,
  isValidComponentName,
} from './component-names.ts';
import { cachedEntryOutcome } from './entry-cache.ts';
import type { EntryOutcome } from './entry-cache.ts';
import { fileDiagnostic } from './file-diagnostic.ts';
import type { FileLayer, FileLoadDiagnostic } from './file-diagnostic.ts';
import type { EntryReadResult, FieldIssue } from './front-matter-reader.ts';
import { parseFrontMatter } from './front-matter.ts';
import type { FrontMatterDocument } from './front-matter.ts';
import { readPluginEntry } from './plugin-entry.ts';
import type { FilePluginDefinition } from './plugin-entry.ts';
import { readAgentSkillEntry, readSkillEntry } from './skill-entry.ts';
import { readToolEntry } from './tool-entry.ts';
import type { FileToolDefinition } from './tool-entry.ts';

/**
 * A component folder that loaded: its definition, folder and entry file.
 *
 * @example
 * const [first]: ScannedComponent<FileToolDefinition>[] = (await scanLayer(home, 'global')).tools;
 */
export interface ScannedComponent<T> {
  definition: T;
  directory: string;
  entryPath: string;
}

/**
 * Everything one layer folder (`~/.youyou` or `{cwd}/.youyou`) holds.
 *
 * @example
 * const scan: LayerScan = await scanLayer(projectLayerDirectory(cwd), 'project');
 */
export interface LayerScan {
  tools: ScannedComponent<FileToolDefinition>[];
  skills: ScannedComponent<SkillDefinition>[];
  plugins: ScannedComponent<FilePluginDefinition>[];
  diagnostics: FileLoadDiagnostic[];
}

export function emptyLayerScan(): LayerScan {
  return { tools: [], skills: [], plugins: [], diagnostics: [] };
}

/**
 * Reads the `tools/`, `skills/` and `plugins/` folders of one layer. Invalid folders are skipped
 * with a diagnostic; the rest load. Hidden entries (`.name`, including the component store's
 * staging folders) and plain files are ignored. Folders load in name order.
 *
 * @example
 * const scan = await scanLayer('/home/me/.youyou', 'global');
 * scan.tools.map((tool) => tool.definition.name);
 */
export async function scanLayer(layerDirectory: string, layer: FileLayer): Promise<LayerScan> {
  const scan = emptyLayerScan();
  await Promise.all([
    scanKind(layerDirectory, layer, 'tool', scan, readToolFolder),
    scanKind(layerDirectory, layer, 'skill', scan, readSkillFolder),
    scanKind(layerDirectory, layer, 'plugin', scan, readPluginFolder),
  ]);
  return scan;
}

type FolderReader = (folder: FolderContext) => Promise<FolderResult>;

interface FolderContext {
  name: string;
  /** The names in the folder. */
  entries: ReadonlySet<string>;
  directory: string;
  layer: FileLayer;
  kind: ComponentKind;
  diagnostics: FileLoadDiagnostic[];
}

type FolderResult =
  | { kind: 'tool'; component: ScannedComponent<FileToolDefinition> }
  | { kind: 'skill'; component: ScannedComponent<SkillDefinition> }
  | { kind: 'plugin'; component: ScannedComponent<FilePluginDefinition> }
  | undefined;

async function scanKind(
  layerDirectory: string,
  layer: FileLayer,
  kind: ComponentKind,
  scan: LayerScan,
  readFolder: FolderReader,
): Promise<void> {
  const kindDirectory = join(layerDirectory, KIND_FOLDERS[kind]);
  let names: string[];
  try {
    names = (await readdir(kindDirectory)).filter((name) => !name.startsWith('.')).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    const reason =
      code === 'ENOTDIR' ? `${KIND_FOLDERS[kind]} must be a folder` : `could not be read: ${String(error)}`;
    scan.diagnostics.push(fileDiagnostic({ path: kindDirectory, reason, kind, layer }));
    return;
  }
  const results = await Promise.all(
    names.map(async (name) => {
      const diagnostics: FileLoadDiagnostic[] = [];
      const directory = join(kindDirectory, name);
      const result = await readComponentFolder({ name, directory, layer, kind, diagnostics }, readFolder);
      return { result, diagnostics };
    }),
  );
  const seen = new Set<string>();
  for (const { result, diagnostics } of results) {
    scan.diagnostics.push(...diagnostics);
    if (result === undefined) continue;
    const name = result.kind === 'plugin' ? result.component.definition.id : result.component.definition.name;
    if (seen.has(name)) {
      // Folder names are unique on disk, so this only guards against a future entry format.
      scan.diagnostics.push(
        fileDiagnostic({
          path: result.component.directory,
          reason: `NAME_CONFLICT: a second ${kind} named ${name} in this layer; skipped`,
          kind,
          layer,
        }),
      );
      continue;
    }
    seen.add(name);
    if (result.kind === 'tool') scan.tools.push(result.component);
    else if (result.kind === 'skill') scan.skills.push(result.component);
    else scan.plugins.push(result.component);
  }
}

async function readComponentFolder(
  folder: Omit<FolderContext, 'entries'>,
  readFolder: FolderReader,
): Promise<FolderResult> {
  let entries: string[];
  try {
    entries = await readdir(folder.directory);
  } catch (error) {
    // A plain file among the folders (a README) is not a component; say nothing.
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    report(folder, folder.directory, `could not be read: ${String(error)}`);
    return undefined;
  }
  if (!isValidComponentName(folder.name)) {
    report(folder, folder.directory, `invalid folder name: ${describeInvalidName(folder.name)}; skipped`);
    return undefined;
  }
  try {
    return await readFolder({ ...folder, entries: new Set(entries) });
  } catch (error) {
    report(
      folder,
      folder.directory,
      `could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}

const readToolFolder: FolderReader = async (folder) => {
  const entry = await readEntry(folder, INDEX_FILE, readToolEntry);
  return entry === undefined ? undefined : { kind: 'tool', component: entry };
};

const readPluginFolder: FolderReader = async (folder) => {
  const entry = await readEntry(folder, INDEX_FILE, readPluginEntry);
  return entry === undefined ? undefined : { kind: 'plugin', component: entry };
};

const readSkillFolder: FolderReader = async (folder) => {
  const hasIndex = folder.entries.has(INDEX_FILE);
  const hasSkillFile = folder.entries.has(SKILL_FILE);
  if (hasIndex && hasSkillFile) {
    report(
      folder,
      join(folder.directory, SKILL_FILE),
      `ignored: ${INDEX_FILE} in the same folder is the entry file`,
      'warning',
    );
  }
  const entry =
    hasSkillFile && !hasIndex
      ? await readEntry(folder, SKILL_FILE, readAgentSkillEntry)
      : await readEntry(folder, INDEX_FILE, readSkillEntry);
  return entry === undefined ? undefined : { kind: 'skill', component: entry };
};

async function readEntry<T>(
  folder: FolderContext,
  fileName: string,
  read: (document: FrontMatterDocument, folderName: string) => EntryReadResult<T>,
): Promise<ScannedComponent<T> | undefined> {
  const entryPath = join(folder.directory, fileName);
  const text = await readEntryText(folder, entryPath, fileName);
  if (text === undefined) return undefined;
  const outcome = cachedEntryOutcome(
    `${folder.kind}\0${folder.name}\0${fileName}\0${text}`,
    (): EntryOutcome<T> => {
      const parsed = parseFrontMatter(text);
      return parsed.ok
        ? { parsed: true, result: read(parsed.value, folder.name) }
        : { parsed: false, failure: parsed.failure };
    },
  );
  if (!outcome.parsed) {
    report(folder, entryPath, `${outcome.failure.reason}; skipped`, 'error', outcome.failure.line);
    return undefined;
  }
  const result = outcome.result;
  for (const warning of result.warnings) report(folder, entryPath, warning.message, 'warning', warning.line);
  if (!result.ok) {
    report(folder, entryPath, `${joinIssues(result.errors)}; skipped`, 'error', result.errors[0]?.line);
    return undefined;
  }
  return { definition: result.value, directory: folder.directory, entryPath };
}

async function readEntryText(
  folder: FolderContext,
  entryPath: string,
  fileName: string,
): Promise<string | undefined> {
  const expected = folder.kind === 'skill' ? `${INDEX_FILE} (or ${SKILL_FILE})` : INDEX_FILE;
  if (!folder.entries.has(fileName)) {
    report(folder, folder.directory, `missing ${expected}; skipped`);
    return undefined;
  }
  let handle: FileHandle | undefined;
  try {
    handle = await open(entryPath, 'r');
    const info = await handle.stat();
    if (!info.isFile()) {
      report(folder, entryPath, `${fileName} is not a file; skipped`);
      return undefined;
    }
    if (info.size > MAX_ENTRY_FILE_BYTES) {
      report(
        folder,
        entryPath,
        `${fileName} is ${String(info.size)} bytes, more than the ${String(MAX_ENTRY_FILE_BYTES)} allowed; skipped`,
      );
      return undefined;
    }
    return await handle.readFile('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') report(folder, entryPath, `${fileName} is not a file; skipped`);
    else report(folder, entryPath, `${fileName} could not be read: ${String(error)}`);
    return undefined;
  } finally {
    await handle?.close();
  }
}

function report(
  folder: Pick<FolderContext, 'diagnostics' | 'kind' | 'layer'>,
  path: string,
  reason: string,
  severity: 'error' | 'warning' = 'error',
  line?: number,
): void {
  folder.diagnostics.push(
    fileDiagnostic({ path, reason, severity, kind: folder.kind, layer: folder.layer, line }),
  );
}

function joinIssues(issues: readonly FieldIssue[]): string {
  return issues
    .map((issue) =>
      issue.line === undefined ? issue.message : `${issue.message} (line ${String(issue.line)})`,
    )
    .join('; ');
}
