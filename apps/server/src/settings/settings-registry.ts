import {
  SettingDefinitionSchema,
  SettingsSectionSchema,
  type SettingDefinition,
  type SettingsSection,
  type SettingValueSchema,
} from '@youyou/contracts';
import { Ajv, type ValidateFunction } from 'ajv';
import { ApiError, type ApiErrorCode } from '../errors/index.ts';

/** The page a section registered without one is drawn in (an extension's, a new server section). */
export const DEFAULT_SETTINGS_PAGE = 'preferences';

/** A setting as registered: its public definition, and for agent settings the config.yaml key. */
export interface RegisteredSetting {
  definition: SettingDefinition;
  /** The user layer of this setting is this key of `~/.youyou/config.yaml` (spec §4.9, ARCHITECTURE). */
  configKey?: string;
  validate: ValidateFunction;
  /** Rules a JSON Schema cannot state (a sum across properties): each problem, with its code. */
  refine?: SettingRefinement;
}

/** A rule beyond the schema: the problems of a value that passed it, none when it holds. */
export type SettingRefinement = (value: unknown) => { code: ApiErrorCode; path: string; message: string }[];

/** What `register` takes: a definition, and for agent settings the config.yaml key it lives in. */
export interface SettingRegistration extends SettingDefinition {
  configKey?: string;
  refine?: SettingRefinement;
}

/** The JSON Schema ajv checks a value with: `nullable` becomes a `null` alternative. */
function jsonSchemaOf(schema: SettingValueSchema): Record<string, unknown> {
  const { nullable, default: _default, format, items, properties, additionalProperties, ...rest } = schema;
  const node: Record<string, unknown> = { ...rest };
  // `format` is a rendering hint here (model picker, text area), not a JSON Schema format to check.
  void format;
  void _default;
  if (items !== undefined) node['items'] = jsonSchemaOf(items);
  if (properties !== undefined) {
    node['properties'] = Object.fromEntries(
      Object.entries(properties).map(([name, child]) => [name, jsonSchemaOf(child)]),
    );
  }
  if (additionalProperties !== undefined) {
    node['additionalProperties'] =
      typeof additionalProperties === 'boolean' ? additionalProperties : jsonSchemaOf(additionalProperties);
  }
  if (nullable === true) {
    if (node['enum'] !== undefined) node['enum'] = [...(node['enum'] as unknown[]), null];
    return { anyOf: [node, { type: 'null' }] };
  }
  return node;
}

/**
 * Every setting there is (spec §4.9): built-in ones, and those extensions and profiles register.
 * The settings page is rendered from this list alone, so a setting registered here appears there
 * with no front-end change. Values are validated against each setting's JSON Schema.
 *
 * @example
 * registry.register({ key: 'example.greeting', section: 'example', source: 'extension', source_id: 'example',
 *   schema: { type: 'string', default: 'Hello', maxLength: 40 }, effect: 'hot', secret: false, layers: ['user'],
 *   label: { en: 'Greeting', 'zh-CN': '问候语' }, help: { en: 'What the example says.', 'zh-CN': '示例说的话。' } });
 * registry.check('example.greeting', 'Hi'); // throws INVALID_INPUT for a bad value
 */
export class SettingsRegistry {
  readonly #settings = new Map<string, RegisteredSetting>();
  readonly #sections = new Map<string, SettingsSection>();
  #ajv: Ajv | undefined;
  readonly #listeners = new Set<() => void>();

  /**
   * Adds a section of the settings centre; registering an existing id replaces it. A section
   * that is not a page itself (`page`) and has no widget is listed once a setting is in it.
   */
  registerSection(section: SettingsSection): void {
    const parsed = SettingsSectionSchema.safeParse(section);
    if (!parsed.success) {
      throw new Error(`The settings section '${section.id}' is not valid: ${parsed.error.message}`);
    }
    this.#sections.set(section.id, parsed.data);
    this.#changed();
  }

  /**
   * Adds a setting. A key registered twice is a programming error (two owners of one key), as is a
   * definition that does not parse or a default its own schema rejects.
   */
  register(registration: SettingRegistration): void {
    const { configKey, refine, ...definition } = registration;
    const parsed = SettingDefinitionSchema.safeParse(definition);
    if (!parsed.success) {
      throw new Error(`The setting '${definition.key}' is not a valid definition: ${parsed.error.message}`);
    }
    if (this.#settings.has(definition.key)) {
      throw new Error(`The setting '${definition.key}' is registered already.`);
    }
    const schema = jsonSchemaOf(parsed.data.schema);
    let validate: ValidateFunction | undefined;
    const compile = (): ValidateFunction => (validate ??= this.#compile(schema));
    // The server's own settings (about 60) compile when a value is first checked: compiling them
    // all was the largest single cost of the server's start (decision 0025); a test checks their
    // defaults. A setting from anywhere else (an extension) is checked here, so a bad default
    // fails its registration.
    if (parsed.data.source !== 'builtin') {
      const { default: initial } = parsed.data.schema;
      if (initial !== undefined && !compile()(initial)) {
        throw new Error(`The default of '${definition.key}' does not match its own schema.`);
      }
    }
    this.#settings.set(definition.key, {
      definition: parsed.data,
      ...(configKey === undefined ? {} : { configKey }),
      ...(refine === undefined ? {} : { refine }),
      get validate() {
        return compile();
      },
    });
    if (!this.#sections.has(parsed.data.section)) {
      const name = parsed.data.section.replace(/[-_]/g, ' ');
      this.#sections.set(parsed.data.section, {
        id: parsed.data.section,
        label: { en: name.charAt(0).toUpperCase() + name.slice(1), 'zh-CN': name },
        order: 1000,
        page: DEFAULT_SETTINGS_PAGE,
      });
    }
    this.#changed();
  }

  /** Removes every setting of one source (an extension being uninstalled); stored values stay. */
  unregister(source: SettingDefinition['source'], sourceId: string): void {
    for (const [key, setting] of this.#settings) {
      if (setting.definition.source === source && setting.definition.source_id === sourceId) {
        this.#settings.delete(key);
      }
    }
    this.#changed();
  }

  /** Called whenever the schema changes (the settings page re-reads it). */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get(key: string): RegisteredSetting | undefined {
    return this.#settings.get(key);
  }

  /** The setting, or NOT_FOUND naming the key. */
  require(key: string): RegisteredSetting {
    const setting = this.#settings.get(key);
    if (setting === undefined) {
      throw new ApiError('NOT_FOUND', `There is no setting '${key}'.`, {
        details: { resource: 'setting', key },
      });
    }
    return setting;
  }

  list(): RegisteredSetting[] {
    return [...this.#settings.values()];
  }

  definitions(): SettingDefinition[] {
    return this.list()
      .map((setting) => setting.definition)
      .sort(
        (a, b) =>
          a.section.localeCompare(b.section) || (a.order ?? 0) - (b.order ?? 0) || a.key.localeCompare(b.key),
      );
  }

  /**
   * The sections to draw, in order: pages and sections with a widget always (their widget is
   * content), other sections once a setting is in them, and a page without a widget once one of
   * its sections is listed. A section whose page is not registered is drawn as a page.
   */
  sections(): SettingsSection[] {
    const used = new Set(this.list().map((setting) => setting.definition.section));
    const listed = [...this.#sections.values()].filter(
      (section) => used.has(section.id) || section.widget !== undefined,
    );
    const pagesInUse = new Set(listed.map((section) => section.page));
    return [...this.#sections.values()]
      .filter(
        (section) => listed.includes(section) || (section.page === undefined && pagesInUse.has(section.id)),
      )
      .map((section) =>
        section.page === undefined || this.#sections.has(section.page)
          ? section
          : {
              id: section.id,
              label: section.label,
              order: section.order,
              ...(section.widget === undefined ? {} : { widget: section.widget }),
            },
      )
      .sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
  }

  /** Throws INVALID_INPUT with every problem when `value` does not fit the setting's schema. */
  check(key: string, value: unknown): void {
    const setting = this.require(key);
    if (setting.validate(value)) {
      const refined = value === null || setting.refine === undefined ? [] : setting.refine(value);
      const [first] = refined;
      if (first === undefined) return;
      throw new ApiError(first.code, `'${key}': ${first.message}.`, {
        details: { key, value, problems: refined.map(({ path, message }) => ({ path, message })) },
      });
    }
    const problems = (setting.validate.errors ?? []).map((error) => ({
      path: error.instancePath === '' ? '/' : error.instancePath,
      message: error.message ?? 'is not valid',
    }));
    throw new ApiError(
      'INVALID_INPUT',
      `'${key}' ${problems[0]?.path === '/' ? '' : `${problems[0]?.path ?? ''} `}${problems[0]?.message ?? 'is not valid'}.`,
      { details: { key, value: setting.definition.secret ? '[secret]' : value, problems } },
    );
  }

  #compile(schema: Record<string, unknown>): ValidateFunction {
    // No meta-schema check: SettingDefinitionSchema has already checked each schema against the
    // subset settings may use, and compiling the draft-07 meta-schema was most of the server's
    // start-up time spent in ajv. Made with the first setting compiled, not with the registry.
    this.#ajv ??= new Ajv({ allErrors: true, strict: false, validateSchema: false });
    return this.#ajv.compile(schema);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
