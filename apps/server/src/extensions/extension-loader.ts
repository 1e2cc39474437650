import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import {
  apiVersionSupported,
  DeclarativeHttpToolSchema,
  DocumentTemplateFrontMatterSchema,
  EXTENSION_API_VERSION,
  ExtensionCommandSchema,
  ExtensionManifestSchema,
  ExtensionParserSchema,
  IntentSchema,
  MacroInputSchema,
  MANIFEST_FILE,
  ProfileInputSchema,
  UiAssetSchema,
  uiDocumentProblems,
  WorkflowSchema,
  type DeclarativeHttpTool,
  type DocumentTemplateInfo,
  type ExtensionCommand,
  type ExtensionManifest,
  type ExtensionParser,
  type ExtensionProblem,
  type Intent,
  type KnowledgePack,
  type MacroInput,
  type ProfileInput,
  type UiAsset,
  type Workflow,
} from '@youyou/contracts';
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { hostAllowed } from './http-tool.ts';
import { parseSelection } from './json-path.ts';
import { jsonReferencesOf, referencesOf } from './templates.ts';

/** The same options the agent compiles tool parameters with. */
const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: true, logger: false });

/** Documents of a knowledge pack the loader lists (the indexer reads them). */
const KNOWLEDGE_EXTENSIONS = /\.(md|markdown|txt|docx|pdf|pptx|xlsx|html?)$/i;

/** A knowledge pack with the files found in its folder. */
export interface LoadedKnowledgePack extends KnowledgePack {
  /** Relative to the extension folder. */
  files: string[];
}

/**
 * An extension that loaded without a single problem: the manifest and every asset it declares,
 * validated and cross-checked.
 */
export interface LoadedExtension {
  manifest: ExtensionManifest;
  directory: string;
  tools: DeclarativeHttpTool[];
  commands: ExtensionCommand[];
  panels: UiAsset[];
  cards: UiAsset[];
  forms: UiAsset[];
  workflows: Workflow[];
  intents: Intent[];
  knowledge: LoadedKnowledgePack[];
  /** Document parsers, each with its script's absolute path. */
  parsers: (ExtensionParser & { scriptPath: string })[];
  prompts: { id: string; text: string }[];
  /** Profile templates by id (the file name without `.json`). */
  profileTemplates: { id: string; profile: ProfileInput }[];
  /** Document templates: the front matter's fields and the Markdown body with its placeholders. */
  documentTemplates: (Omit<DocumentTemplateInfo, 'id' | 'source' | 'variables'> & {
    id: string;
    body: string;
  })[];
  macros: MacroInput[];
  /** The agent-framework folder (absolute), when the extension ships one. */
  agentDirectory: string | undefined;
}

export type LoadResult =
  | { ok: true; extension: LoadedExtension }
  | { ok: false; manifest: ExtensionManifest | undefined; problems: ExtensionProblem[] };

/** How many of each kind a loaded extension provides. */
export function countsOf(extension: LoadedExtension): Record<string, number> {
  return {
    tools: extension.tools.length,
    commands: extension.commands.length,
    panels: extension.panels.length,
    cards: extension.cards.length,
    forms: extension.forms.length,
    workflows: extension.workflows.length,
    intents: extension.intents.length,
    knowledge: extension.knowledge.length,
    parsers: extension.parsers.length,
    prompts: extension.prompts.length,
    profile_templates: extension.profileTemplates.length,
    templates: extension.documentTemplates.length,
    macros: extension.macros.length,
    settings: extension.manifest.settings.length,
    agent: extension.agentDirectory === undefined ? 0 : 1,
  };
}

function pointerOf(path: readonly PropertyKey[]): string | undefined {
  return path.length === 0 ? undefined : path.map(String).join('.');
}

/** Checks one UI-schema document (default: the UI-schema contract's strict check). */
export type UiSchemaCheck = (schema: unknown) => { path: string; message: string }[];

export interface LoadOptions {
  /** Validates panel, card and form documents in the UI-schema vocabulary. */
  checkUiSchema?: UiSchemaCheck;
  /** The host's extension API version (tests use others). */
  hostApiVersion?: string;
}

/**
 * Loads an extension folder, fail-closed (spec §4.6): the manifest and every file it lists must
 * exist, parse and validate, and every cross-reference must resolve (a tool's host among the
 * allowed domains, a secret among the declared settings, a workflow's steps and tools, an
 * intent's target). Any problem fails the whole extension, and every problem is listed.
 *
 * @example
 * const result = await loadExtension('/data/extensions/installed/example');
 * if (!result.ok) console.log(result.problems);
 */
export async function loadExtension(directory: string, options: LoadOptions = {}): Promise<LoadResult> {
  const problems: ExtensionProblem[] = [];
  const problem = (path: string, message: string, pointer?: string): void => {
    problems.push({ path, message, ...(pointer === undefined ? {} : { pointer }) });
  };
  const root = resolve(directory);
  const inside = (relative: string): string | undefined => {
    const absolute = resolve(root, relative);
    return absolute.startsWith(root + sep) ? absolute : undefined;
  };

  const readJson = async (relative: string): Promise<unknown> => {
    const absolute = inside(relative);
    if (absolute === undefined) {
      problem(relative, 'the path leaves the extension folder');
      return undefined;
    }
    let text: string;
    try {
      text = await readFile(absolute, 'utf8');
    } catch {
      problem(relative, 'the file is missing');
      return undefined;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      problem(relative, `not valid JSON: ${(error as Error).message}`);
      return undefined;
    }
  };
  const parse = <Schema extends z.ZodType>(
    relative: string,
    schema: Schema,
    value: unknown,
  ): z.infer<Schema> | undefined => {
    if (value === undefined) return undefined;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data as z.infer<Schema>;
    for (const issue of parsed.error.issues) problem(relative, issue.message, pointerOf(issue.path));
    return undefined;
  };

  const manifest = parse(MANIFEST_FILE, ExtensionManifestSchema, await readJson(MANIFEST_FILE));
  if (manifest === undefined) return { ok: false, manifest: undefined, problems };
  const host = options.hostApiVersion ?? EXTENSION_API_VERSION;
  if (!apiVersionSupported(manifest.apiVersion, host)) {
    problem(
      MANIFEST_FILE,
      `written for extension API ${manifest.apiVersion}; this workbench speaks ${host} (same major version, minor up to ${host.split('.').slice(0, 2).join('.')})`,
      'apiVersion',
    );
  }
  const { provides, requires } = manifest;
  const settingKeys = new Set(manifest.settings.map((item) => item.key));
  const secretKeys = new Set(manifest.settings.filter((item) => item.secret).map((item) => item.key));
  if (settingKeys.size !== manifest.settings.length)
    problem(MANIFEST_FILE, 'two settings share a key', 'settings');

  const loadAll = async <Schema extends z.ZodType>(paths: readonly string[], schema: Schema) => {
    const loaded: { path: string; value: z.infer<Schema> }[] = [];
    for (const path of paths) {
      const value = parse(path, schema, await readJson(path));
      if (value !== undefined) loaded.push({ path, value });
    }
    return loaded;
  };
  const unique = <Item>(
    kind: string,
    items: { path: string; value: Item }[],
    key: (item: Item) => string,
  ) => {
    const seen = new Map<string, string>();
    for (const { path, value } of items) {
      const id = key(value);
      const earlier = seen.get(id);
      if (earlier !== undefined) problem(path, `the ${kind} '${id}' is declared twice (also in ${earlier})`);
      seen.set(id, path);
    }
  };

  const tools = await loadAll(provides.tools, DeclarativeHttpToolSchema);
  unique('tool', tools, (tool) => tool.name);
  for (const { path, value: tool } of tools) {
    const declared = new Set(Object.keys(tool.parameters.properties));
    try {
      ajv.compile(tool.parameters);
    } catch (error) {
      problem(path, `the parameters schema does not compile: ${(error as Error).message}`, 'parameters');
    }
    const check = (references: ReturnType<typeof referencesOf>, pointer: string, secretsAllowed: boolean) => {
      for (const reference of references) {
        if (reference.kind === 'argument' && !declared.has(reference.name))
          problem(path, `{{${reference.name}}} is not one of the tool's parameters`, pointer);
        if (reference.kind === 'setting' && !settingKeys.has(reference.name))
          problem(path, `{{setting:${reference.name}}} is not a setting the manifest declares`, pointer);
        if (reference.kind === 'secret') {
          if (!secretsAllowed) problem(path, 'a secret may only be used in a header', pointer);
          else if (!secretKeys.has(reference.name))
            problem(
              path,
              `{{secret:${reference.name}}} is not a secret setting the manifest declares`,
              pointer,
            );
        }
      }
    };
    check(referencesOf(tool.request.url), 'request.url', false);
    for (const [name, value] of Object.entries(tool.request.headers))
      check(referencesOf(value), `request.headers.${name}`, true);
    for (const [name, value] of Object.entries(tool.request.query))
      check(referencesOf(value), `request.query.${name}`, false);
    if (tool.request.body !== undefined) {
      check(jsonReferencesOf(tool.request.body), 'request.body', false);
      if (tool.request.method === 'GET') problem(path, 'a GET request has no body', 'request.body');
    }
    // The host is fixed, or comes from one of the extension's settings (the user's choice, say a
    // local endpoint) — never from an argument the model fills in. Either way every request is
    // checked against `requires.network.domains` when it is made.
    const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(tool.request.url)?.[0];
    const leading = referencesOf(tool.request.url)[0];
    if (tool.request.url.startsWith('{{')) {
      if (leading?.kind !== 'setting')
        problem(
          path,
          'a URL may start with a {{setting:…}} only (its host never comes from an argument)',
          'request.url',
        );
    } else if (origin === undefined) {
      problem(path, 'the URL is not an absolute http(s) URL', 'request.url');
    } else if (
      origin.includes('{{') &&
      referencesOf(origin).some((reference) => reference.kind !== 'setting')
    ) {
      problem(path, 'the host may not be filled in from an argument', 'request.url');
    } else if (!origin.includes('{{')) {
      let url: URL | undefined;
      try {
        url = new URL(origin);
      } catch {
        problem(path, 'the URL is not an absolute http(s) URL', 'request.url');
      }
      if (url !== undefined && url.protocol !== 'https:' && url.protocol !== 'http:')
        problem(path, 'only http and https URLs', 'request.url');
      else if (url !== undefined && !hostAllowed(url.hostname, requires.network.domains))
        problem(path, `the host ${url.hostname} is not among requires.network.domains`, 'request.url');
    }
    if (tool.response.select !== undefined) {
      try {
        parseSelection(tool.response.select);
      } catch (error) {
        problem(path, `the selection is not valid: ${(error as Error).message}`, 'response.select');
      }
    }
  }
  const toolNames = new Set(tools.map(({ value }) => value.name));

  const uiAssets = async (kind: 'panel' | 'card' | 'form', paths: readonly string[]) => {
    const loaded = await loadAll(paths, UiAssetSchema);
    unique(kind, loaded, (asset) => asset.id);
    for (const { path, value } of loaded) {
      if (value.schema === undefined || value.schema === null)
        problem(path, 'the UI schema is missing', 'schema');
      else
        for (const found of (options.checkUiSchema ?? uiDocumentProblems)(value.schema))
          problem(path, found.message, `schema${found.path === '' ? '' : `.${found.path}`}`);
    }
    return loaded.map(({ value }) => value);
  };
  const panels = await uiAssets('panel', provides.panels);
  const cards = await uiAssets('card', provides.cards);
  const forms = await uiAssets('form', provides.forms);
  const formIds = new Set(forms.map((form) => form.id));

  const workflows = await loadAll(provides.workflows, WorkflowSchema);
  unique('workflow', workflows, (workflow) => workflow.id);
  const allowedTools = new Set(requires.tools.execute);
  for (const { path, value: workflow } of workflows) {
    const stepIds = new Set<string>();
    workflow.steps.forEach((step, index) => {
      if (stepIds.has(step.id)) problem(path, `two steps are called '${step.id}'`, `steps.${index}.id`);
      stepIds.add(step.id);
    });
    workflow.steps.forEach((step, index) => {
      const at = `steps.${index}`;
      const target = (id: string | undefined, pointer: string) => {
        if (id !== undefined && !stepIds.has(id)) problem(path, `no step '${id}'`, `${at}.${pointer}`);
      };
      target(step.next, 'next');
      if (step.type === 'branch') {
        for (const [value, id] of Object.entries(step.cases)) target(id, `cases.${value}`);
        target(step.default, 'default');
      }
      if (
        step.type === 'tool' &&
        !toolNames.has(step.tool) &&
        !allowedTools.has('*') &&
        !allowedTools.has(step.tool)
      )
        problem(
          path,
          `the tool '${step.tool}' is neither the extension's own nor in requires.tools.execute`,
          `${at}.tool`,
        );
      if (step.type === 'card') {
        if (step.form !== undefined && !formIds.has(step.form))
          problem(path, `no form '${step.form}'`, `${at}.form`);
        if (step.form === undefined && (step.options ?? []).length === 0 && step.question.trim() === '')
          problem(path, 'a card step needs a question', `${at}.question`);
      }
    });
  }
  const workflowIds = new Set(workflows.map(({ value }) => value.id));

  const commands = await loadAll(provides.commands, ExtensionCommandSchema);
  unique('command', commands, (command) => command.name);
  for (const { path, value } of commands)
    if (value.workflow !== undefined && !workflowIds.has(value.workflow))
      problem(path, `no workflow '${value.workflow}' in this extension`, 'workflow');
  const commandNames = new Set(commands.map(({ value }) => value.name));

  const intents = await loadAll(provides.intents, IntentSchema);
  unique('intent', intents, (intent) => intent.id);
  for (const { path, value } of intents) {
    if (value.workflow !== undefined && !workflowIds.has(value.workflow))
      problem(path, `no workflow '${value.workflow}' in this extension`, 'workflow');
    if (value.command !== undefined && !commandNames.has(value.command))
      problem(path, `no command '${value.command}' in this extension`, 'command');
    for (const slot of value.slots)
      if (slot.type === 'enum' && (slot.enum ?? []).length === 0)
        problem(path, `the enum slot '${slot.name}' lists no values`, 'slots');
  }

  const knowledge: LoadedKnowledgePack[] = [];
  for (const pack of provides.knowledge) {
    const absolute = inside(pack.path);
    const files: string[] = [];
    try {
      if (absolute === undefined || !(await stat(absolute)).isDirectory()) throw new Error('not a folder');
      const walk = async (folder: string, relative: string): Promise<void> => {
        for (const entry of await readdir(folder, { withFileTypes: true })) {
          const shown = `${relative}/${entry.name}`;
          if (entry.isDirectory()) await walk(join(folder, entry.name), shown);
          else if (entry.isFile() && KNOWLEDGE_EXTENSIONS.test(entry.name)) files.push(shown);
        }
      };
      await walk(absolute, pack.path.replace(/\/$/, ''));
      if (files.length === 0)
        problem(pack.path, 'the knowledge folder holds no documents (.md, .txt, .docx, .pdf …)');
    } catch {
      problem(pack.path, 'the knowledge folder is missing');
    }
    knowledge.push({ ...pack, files: files.sort() });
  }
  if (new Set(provides.knowledge.map((pack) => pack.id)).size !== provides.knowledge.length)
    problem(MANIFEST_FILE, 'two knowledge packs share an id', 'provides.knowledge');

  const prompts: { id: string; text: string }[] = [];
  for (const path of provides.prompts) {
    const absolute = inside(path);
    if (!path.endsWith('.md')) problem(path, 'a prompt is a .md file');
    try {
      if (absolute === undefined) throw new Error('outside');
      prompts.push({ id: basename(path, '.md'), text: await readFile(absolute, 'utf8') });
    } catch {
      problem(path, 'the file is missing');
    }
  }
  const profileTemplates = (await loadAll(provides.profile_templates, ProfileInputSchema)).map(
    ({ path, value }) => ({ id: basename(path, '.json'), profile: value }),
  );
  const documentTemplates: LoadedExtension['documentTemplates'] = [];
  for (const path of provides.templates) {
    const absolute = inside(path);
    if (!path.endsWith('.md')) problem(path, 'a document template is a .md file');
    let text: string;
    try {
      if (absolute === undefined) throw new Error('outside');
      text = await readFile(absolute, 'utf8');
    } catch {
      problem(path, 'the file is missing');
      continue;
    }
    // Front matter between `---` lines says the title, the description and the format.
    const framed = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
    let front: unknown;
    try {
      front = framed === null ? {} : (parseYaml(framed[1] ?? '') ?? {});
    } catch {
      problem(path, 'the front matter is not YAML');
      continue;
    }
    const meta = parse(path, DocumentTemplateFrontMatterSchema, front);
    if (meta === undefined) continue;
    const id = basename(path, '.md');
    documentTemplates.push({
      id,
      title: meta.title ?? id,
      description: meta.description ?? '',
      format: meta.format,
      body: framed === null ? text : (framed[2] ?? ''),
    });
  }
  unique(
    'document template',
    documentTemplates.map((template) => ({ path: template.id, value: template })),
    (template) => template.id,
  );
  const macros = await loadAll(provides.macros, MacroInputSchema);
  unique('macro', macros, (macro) => macro.name);

  const parsers: LoadedExtension['parsers'] = [];
  const parserFiles = await loadAll(provides.parsers, ExtensionParserSchema);
  unique('parser', parserFiles, (parser) => parser.id);
  for (const { path, value: parser } of parserFiles) {
    const scriptPath = inside(parser.script);
    const isFile =
      scriptPath !== undefined &&
      (await stat(scriptPath).then(
        (found) => found.isFile(),
        () => false,
      ));
    if (!isFile) problem(path, `the parser script '${parser.script}' is missing`, 'script');
    else parsers.push({ ...parser, scriptPath });
  }

  let agentDirectory: string | undefined;
  if (provides.agent !== undefined) {
    const absolute = inside(provides.agent);
    const isFolder =
      absolute !== undefined &&
      (await stat(absolute).then(
        (found) => found.isDirectory(),
        () => false,
      ));
    if (!isFolder) problem(provides.agent, 'the agent components folder is missing');
    else agentDirectory = absolute;
  }

  if (problems.length > 0) return { ok: false, manifest, problems };
  return {
    ok: true,
    extension: {
      manifest,
      directory: root,
      tools: tools.map(({ value }) => value),
      commands: commands.map(({ value }) => value),
      panels,
      cards,
      forms,
      workflows: workflows.map(({ value }) => value),
      intents: intents.map(({ value }) => value),
      knowledge,
      parsers,
      prompts,
      profileTemplates,
      documentTemplates,
      macros: macros.map(({ value }) => value),
      agentDirectory,
    },
  };
}
