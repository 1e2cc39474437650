import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { ComponentKind } from '../components/index.ts';
import { AgentError } from '../errors/index.ts';
import { writeFileAtomic } from '../atomic-write/index.ts';
import { composeEntry, scriptPathsOf, validateEntry } from './component-draft.ts';
import { listFileComponents } from './component-listing.ts';
import type { FileComponentEntry } from './component-listing.ts';
import {
  COMPONENT_KINDS,
  INDEX_FILE,
  KIND_FOLDERS,
  SKILL_FILE,
  describeInvalidName,
  isValidComponentName,
} from './component-names.ts';
import { assertNoSymbolicLinks, checkAuxiliaryPath } from './component-paths.ts';
import { scanFileComponents } from './file-component-source.ts';
import type { FileLayer, FileLoadDiagnostic } from './file-diagnostic.ts';
import type { FieldIssue } from './front-matter-reader.ts';
import { parseFrontMatter } from './front-matter.ts';
import { writePluginToggle } from './plugin-state.ts';
import { projectLayerDirectory, resolveYouyouHome } from './youyou-home.ts';

/**
 * An auxiliary file to write into a component folder.
 *
 * @example
 * const file: ComponentFile = { path: 'scripts/run.sh', content: '#!/bin/sh\necho hi\n' };
 */
export interface ComponentFile {
  /** Relative, forward slashes: `run.sh`, `lib/helpers.py`. */
  path: string;
  content: string | Uint8Array;
  /** Mode 0755 instead of 0644; by default, files starting with `#!` are executable. */
  executable?: boolean;
}

/**
 * A new component: entry front matter and body (or the whole entry text), plus files.
 *
 * @example
 * const draft: ComponentDraft = { kind: 'skill', name: 'commit', layer: 'global',
 *   frontMatter: { description: 'Write a commit message.' }, body: 'Read the diff…' };
 */
export interface ComponentDraft {
  kind: ComponentKind;
  name: string;
  layer: FileLayer;
  /** `version` and `name`/`id` are filled in when absent. */
  frontMatter?: Readonly<Record<string, unknown>>;
  body?: string;
  /** The complete entry file text, instead of `frontMatter` + `body`. */
  entry?: string;
  /** Skills only: write `SKILL.md` (Agent Skills format) instead of `index.md`. */
  entryFile?: typeof INDEX_FILE | typeof SKILL_FILE;
  files?: readonly ComponentFile[];
}

/**
 * Changes to an existing component; anything absent stays as it is.
 *
 * @example
 * const changes: ComponentChanges = { body: 'New description.', removeFiles: ['old.sh'] };
 */
export interface ComponentChanges {
  frontMatter?: Readonly<Record<string, unknown>>;
  body?: string;
  entry?: string;
  files?: readonly ComponentFile[];
  removeFiles?: readonly string[];
}

/**
 * A component folder as stored.
 *
 * @example
 * const document: ComponentDocument = await store.read('tool', 'grep', 'global');
 * document.files; // ['run.sh']
 */
export interface ComponentDocument {
  kind: ComponentKind;
  name: string;
  layer: FileLayer;
  directory: string;
  entryFile: string;
  /** The entry text as on disk. */
  entry: string;
  frontMatter: Readonly<Record<string, unknown>>;
  body: string;
  /** Auxiliary files, relative paths, sorted. */
  files: string[];
  /** Non-fatal problems, such as unknown fields (after a write: of what was written). */
  warnings: FieldIssue[];
}

/**
 * Where a `ComponentStore` works.
 *
 * @example
 * const options: ComponentStoreOptions = { cwd: process.cwd(), home: '/tmp/test-home' };
 */
export interface ComponentStoreOptions {
  cwd: string;
  /** Defaults to `YOUYOU_HOME` or `~/.youyou`. */
  home?: string;
}

/**
 * The component management API (spec §9) over `~/.youyou` and `{cwd}/.youyou`: list with source
 * and override, read, create, update and delete component folders, toggle file plugins. Every
 * write is validated first (names, paths that stay in the folder, an entry that will load) and is
 * atomic; a running session keeps what it loaded and the next session sees the change.
 *
 * @example
 * const store = new ComponentStore({ cwd: process.cwd(), home });
 * await store.create({
 *   kind: 'tool', name: 'hello', layer: 'project',
 *   frontMatter: { execution: { command: './hello.sh' } },
 *   body: 'Says hello.',
 *   files: [{ path: 'hello.sh', content: '#!/bin/sh\necho hello\n' }],
 * });
 * const { components } = await store.list();
 */
export class ComponentStore {
  readonly cwd: string;
  readonly home: string;

  constructor(options: ComponentStoreOptions) {
    this.cwd = resolve(options.cwd);
    this.home = resolve(options.home ?? resolveYouyouHome());
  }

  /** The folder of a layer: the home, or `{cwd}/.youyou`. */
  layerDirectory(layer: FileLayer): string {
    return layer === 'global' ? this.home : projectLayerDirectory(this.cwd);
  }

  /** The folder a component of this kind, name and layer lives in (whether or not it exists). */
  componentDirectory(kind: ComponentKind, name: string, layer: FileLayer): string {
    checkKindAndName(kind, name, layer);
    return join(this.layerDirectory(layer), KIND_FOLDERS[kind], name);
  }

  /** Every file component with its layer and override, plus what was skipped and why. */
  async list(): Promise<{ components: FileComponentEntry[]; diagnostics: FileLoadDiagnostic[] }> {
    const scan = await scanFileComponents({ cwd: this.cwd, home: this.home });
    return { components: listFileComponents(scan), diagnostics: scan.diagnostics };
  }

  async read(kind: ComponentKind, name: string, layer: FileLayer): Promise<ComponentDocument> {
    const directory = this.componentDirectory(kind, name, layer);
    const entryFile = await existingEntryFile(kind, directory);
    if (entryFile === undefined) throw notFound(kind, name, layer);
    const entry = await readFile(join(directory, entryFile), 'utf8');
    const parsed = parseFrontMatter(entry);
    const files = (await listFiles(directory)).filter((file) => file !== entryFile);
    let warnings: FieldIssue[];
    try {
      warnings = validateEntry(kind, name, entryFile, entry).warnings;
    } catch (error) {
      if (!(error instanceof AgentError)) throw error;
      const reasons = error.details['reasons'];
      warnings = Array.isArray(reasons)
        ? reasons.map((reason) => ({ message: String(reason) }))
        : [{ message: error.message }];
    }
    return {
      kind,
      name,
      layer,
      directory,
      entryFile,
      entry,
      frontMatter: parsed.ok ? parsed.value.data : {},
      body: parsed.ok ? parsed.value.body.trim() : '',
      files,
      warnings,
    };
  }

  /** Reads one auxiliary file of a component. */
  async readFile(kind: ComponentKind, name: string, layer: FileLayer, path: string): Promise<Buffer> {
    const directory = this.componentDirectory(kind, name, layer);
    const checked = checkAuxiliaryPath(path);
    await assertNoSymbolicLinks(directory, checked);
    return readFile(join(directory, checked));
  }

  /** Creates a component folder; NAME_CONFLICT when that layer already has one of that name. */
  async create(draft: ComponentDraft): Promise<ComponentDocument> {
    const { kind, name, layer } = draft;
    const directory = this.componentDirectory(kind, name, layer);
    const entryFile = draft.entryFile ?? INDEX_FILE;
    if (entryFile === SKILL_FILE && kind !== 'skill') {
      throw new AgentError('INVALID_INPUT', `${SKILL_FILE} is only for skills`, {
        details: { kind, entryFile },
      });
    }
    const entry = draft.entry ?? composeEntry(kind, name, draft.frontMatter ?? {}, draft.body ?? '');
    const files = checkFiles(draft.files ?? []);
    checkScripts(kind, name, entryFile, entry, new Set(files.map((file) => file.path)));
    if (await pathExists(directory)) throw conflict(kind, name, layer, directory);
    const kindDirectory = dirname(directory);
    await mkdir(kindDirectory, { recursive: true });
    const staging = join(kindDirectory, `.staging-${name}-${randomBytes(6).toString('hex')}`);
    try {
      await mkdir(staging);
      for (const file of files) await writeComponentFile(staging, file);
      await writeFileAtomic(join(staging, entryFile), entry);
      if (await pathExists(directory)) throw conflict(kind, name, layer, directory);
      await rename(staging, directory);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTEMPTY' || code === 'EEXIST') throw conflict(kind, name, layer, directory);
      throw error instanceof AgentError ? error : AgentError.fromUnknown(error, 'STORAGE_ERROR');
    }
    return this.read(kind, name, layer);
  }

  /**
   * Edits a component: auxiliary files first (each replaced atomically), removals, then the entry
   * file last, so the folder loads at every step.
   */
  async update(
    kind: ComponentKind,
    name: string,
    layer: FileLayer,
    changes: ComponentChanges,
  ): Promise<ComponentDocument> {
    const current = await this.read(kind, name, layer);
    const files = checkFiles(changes.files ?? []);
    const removals = (changes.removeFiles ?? []).map(checkAuxiliaryPath);
    const rewriteEntry =
      changes.entry !== undefined || changes.frontMatter !== undefined || changes.body !== undefined;
    const entry =
      changes.entry ??
      (rewriteEntry
        ? composeEntry(kind, name, changes.frontMatter ?? current.frontMatter, changes.body ?? current.body)
        : current.entry);
    const available = new Set([
      ...current.files.filter((file) => !removals.includes(file)),
      ...files.map((file) => file.path),
    ]);
    checkScripts(kind, name, current.entryFile, entry, available);
    for (const path of [...files.map((file) => file.path), ...removals])
      await assertNoSymbolicLinks(current.directory, path);
    try {
      for (const file of files) await writeComponentFile(current.directory, file);
      for (const path of removals) await rm(join(current.directory, path), { force: true });
      if (rewriteEntry) await writeFileAtomic(join(current.directory, current.entryFile), entry);
    } catch (error) {
      throw AgentError.fromUnknown(error, 'STORAGE_ERROR');
    }
    return this.read(kind, name, layer);
  }

  /** Deletes the whole folder (spec §9): it disappears at once, then its files are removed. */
  async delete(kind: ComponentKind, name: string, layer: FileLayer): Promise<void> {
    const directory = this.componentDirectory(kind, name, layer);
    if (!(await pathExists(directory))) throw notFound(kind, name, layer);
    const trash = join(dirname(directory), `.deleted-${name}-${randomBytes(6).toString('hex')}`);
    try {
      await rename(directory, trash);
      await rm(trash, { recursive: true, force: true });
    } catch (error) {
      throw AgentError.fromUnknown(error, 'STORAGE_ERROR');
    }
  }

  /**
   * Turns a file plugin on or off at runtime (spec §3.5: the highest enablement priority), or
   * clears the toggle with `undefined`. `scope: 'project'` (the default) applies to this working
   * directory only. Programmatic plugins are always on, so an id no file layer has is INVALID_INPUT.
   */
  async setPluginEnabled(
    id: string,
    enabled: boolean | undefined,
    options: { scope?: FileLayer } = {},
  ): Promise<void> {
    checkKindAndName('plugin', id, 'global');
    const { components } = await this.list();
    if (!components.some((component) => component.kind === 'plugin' && component.name === id)) {
      throw new AgentError(
        'INVALID_INPUT',
        `No file plugin named ${id} in ${this.home} or ${this.layerDirectory('project')} (programmatic plugins are always on)`,
        {
          details: { id },
        },
      );
    }
    const target =
      options.scope === 'global'
        ? ({ scope: 'global' } as const)
        : ({ scope: 'project', cwd: this.cwd } as const);
    await writePluginToggle(this.home, id, enabled, target);
  }
}

function checkKindAndName(kind: ComponentKind, name: string, layer: FileLayer): void {
  if (!COMPONENT_KINDS.includes(kind)) {
    throw new AgentError(
      'INVALID_INPUT',
      `Unknown component kind ${JSON.stringify(kind)} (tool, skill or plugin)`,
      { details: { kind } },
    );
  }
  if (layer !== 'global' && layer !== 'project') {
    throw new AgentError('INVALID_INPUT', `Unknown layer ${JSON.stringify(layer)} (global or project)`, {
      details: { layer },
    });
  }
  if (typeof name !== 'string' || !isValidComponentName(name)) {
    throw new AgentError('INVALID_INPUT', `Invalid ${kind} name: ${describeInvalidName(String(name))}`, {
      details: { kind, name },
    });
  }
}

function checkFiles(files: readonly ComponentFile[]): ComponentFile[] {
  const seen = new Set<string>();
  return files.map((file) => {
    const path = checkAuxiliaryPath(file.path);
    if (seen.has(path))
      throw new AgentError('INVALID_INPUT', `auxiliary file ${path} is given twice`, { details: { path } });
    seen.add(path);
    return { ...file, path };
  });
}

function checkScripts(
  kind: ComponentKind,
  name: string,
  entryFile: string,
  entry: string,
  available: ReadonlySet<string>,
): void {
  const { definition } = validateEntry(kind, name, entryFile, entry);
  if (definition === undefined) return;
  for (const path of scriptPathsOf(definition)) {
    if (!available.has(path)) {
      throw new AgentError(
        'INVALID_INPUT',
        `The ${kind} ${name} runs ${path}, which is not among its files`,
        {
          details: { kind, name, path },
        },
      );
    }
  }
}

async function writeComponentFile(directory: string, file: ComponentFile): Promise<void> {
  const content = typeof file.content === 'string' ? Buffer.from(file.content) : file.content;
  const executable = file.executable ?? (content[0] === 0x23 && content[1] === 0x21);
  const target = join(directory, file.path);
  if (!target.startsWith(directory + sep))
    throw new AgentError('PATH_NOT_ALLOWED', `${file.path} leaves the component folder`);
  await writeFileAtomic(target, content, { mode: executable ? 0o755 : 0o644 });
}

async function existingEntryFile(kind: ComponentKind, directory: string): Promise<string | undefined> {
  if (await isFile(join(directory, INDEX_FILE))) return INDEX_FILE;
  if (kind === 'skill' && (await isFile(join(directory, SKILL_FILE)))) return SKILL_FILE;
  return undefined;
}

async function listFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.tmp'))
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

function notFound(kind: ComponentKind, name: string, layer: FileLayer): AgentError {
  const code = kind === 'tool' ? 'TOOL_NOT_FOUND' : kind === 'skill' ? 'SKILL_NOT_FOUND' : 'PLUGIN_NOT_FOUND';
  return new AgentError(code, `No ${kind} named ${name} in the ${layer} layer`, {
    details: { kind, name, layer, notFound: true },
  });
}

function conflict(kind: ComponentKind, name: string, layer: FileLayer, directory: string): AgentError {
  return new AgentError(
    'NAME_CONFLICT',
    `The ${layer} layer already has a ${kind} named ${name} (${directory})`,
    {
      details: { kind, name, layer, path: directory },
    },
  );
}

async function pathExists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
