import type {
  EffectiveSetting,
  SettingEffect,
  SettingLayer,
  SettingsChangedPayload,
  WritableSettingLayer,
} from '@youyou/contracts';
import type { Kysely } from 'kysely';
import { replaceFile } from './replace-file.ts';
import type { Schema } from '../database/index.ts';
import { ApiError, notFound } from '../errors/index.ts';
import type { SecretRedactor } from '../logging/index.ts';
import type { SecretStore } from '../storage/index.ts';
import { SettingsRepository } from '../storage/index.ts';
import type { WorkbenchStream } from '../workbench-stream/index.ts';
import type { ConfigYamlLayer } from './config-yaml-layer.ts';
import { mergeValue } from './merge-layers.ts';
import type { RegisteredSetting, SettingsRegistry } from './settings-registry.ts';

/** Which project and conversation the effective values are for. */
export interface SettingsContext {
  projectId?: string | null;
  conversationId?: string | null;
}

/** A resolved value with the layer it came from (secrets: only whether one is stored). */
export interface ResolvedSetting {
  value: unknown;
  layer: SettingLayer;
  setAt: WritableSettingLayer[];
}

/** How a secret's row in `settings` points at the secret store. */
interface SecretReference {
  $secret: string;
}

function isSecretReference(value: unknown): value is SecretReference {
  return (
    value !== null && typeof value === 'object' && typeof (value as SecretReference).$secret === 'string'
  );
}

const SCOPE_ID_OF_USER = '';

export interface SettingsServiceOptions {
  db: Kysely<Schema>;
  registry: SettingsRegistry;
  configYaml: ConfigYamlLayer;
  secrets: SecretStore;
  stream: WorkbenchStream;
  redactor?: SecretRedactor;
  /**
   * Where the `restart` settings waiting for a restart are written (JSON) after every change, for
   * `youyou doctor`, which has no database of its own to ask.
   */
  restartFile?: string;
}

/** The file in the data directory that lists `restart` settings for `youyou doctor`. */
export const RESTART_REPORT_FILE = 'settings-restart.json';

/** What `restartFile` holds. */
export interface RestartReport {
  /** When the server that wrote it started. */
  started_at: string;
  /** Every `restart` setting, with its value now and the one the server runs with. */
  settings: { key: string; running: unknown; stored: unknown; pending: boolean }[];
}

/**
 * The layered settings (spec §4.9): `system` defaults (the schema) → `user` (`config.yaml` for
 * agent settings, the database for the rest) → `project` → `conversation`, merged per key, each
 * value reporting the layer it came from. Writes are validated against the schema and are all or
 * nothing; secrets go to the encrypted secret store and never come back out; every change is
 * pushed to every tab as `settings.changed`.
 *
 * @example
 * await settings.write({ layer: 'conversation', scope_id: id }, { 'run.temperature': 0.2 });
 * const { value, layer } = await settings.resolve('run.temperature', { conversationId: id }); // 0.2, 'conversation'
 */
export class SettingsService {
  readonly #options: SettingsServiceOptions;
  readonly #repository: SettingsRepository;
  /** Values of `restart` settings as this server started with them. */
  #startup = new Map<string, string>();
  readonly #startedAt = new Date().toISOString();

  constructor(options: SettingsServiceOptions) {
    this.#options = options;
    this.#repository = new SettingsRepository(options.db);
    // A setting or section registered or removed (an extension turned on or off) changes the
    // settings centre: every tab re-reads the schema. One event per burst of registrations.
    options.registry.onChange(() => {
      if (this.#schemaChangePending) return;
      this.#schemaChangePending = true;
      queueMicrotask(() => {
        this.#schemaChangePending = false;
        this.#options.stream.publish('settings.schema_changed', {});
      });
    });
  }

  #schemaChangePending = false;

  get registry(): SettingsRegistry {
    return this.#options.registry;
  }

  /** Remembers the values of `restart` settings this server runs with. */
  async captureStartup(): Promise<void> {
    const startup = new Map<string, string>();
    for (const setting of this.registry.list()) {
      if (setting.definition.effect !== 'restart') continue;
      const { value } = await this.resolve(setting.definition.key, {});
      startup.set(setting.definition.key, JSON.stringify(value));
    }
    this.#startup = startup;
    await this.#writeRestartReport();
  }

  async #writeRestartReport(): Promise<void> {
    const file = this.#options.restartFile;
    if (file === undefined) return;
    const settings: RestartReport['settings'] = [];
    for (const [key, running] of this.#startup) {
      if (this.registry.get(key) === undefined) continue;
      const { value } = await this.resolve(key, {});
      settings.push({
        key,
        running: JSON.parse(running),
        stored: value,
        pending: JSON.stringify(value) !== running,
      });
    }
    const report: RestartReport = { started_at: this.#startedAt, settings };
    await replaceFile(file, `${JSON.stringify(report, null, 2)}\n`);
  }

  /** `restart` settings whose stored value differs from the one this server started with. */
  async pendingRestart(): Promise<{ key: string; running: unknown; stored: unknown }[]> {
    const pending: { key: string; running: unknown; stored: unknown }[] = [];
    for (const [key, running] of this.#startup) {
      if (this.registry.get(key) === undefined) continue;
      const { value } = await this.resolve(key, {});
      if (JSON.stringify(value) !== running)
        pending.push({ key, running: JSON.parse(running), stored: value });
    }
    return pending;
  }

  /** One key's effective value; throws NOT_FOUND for a key nobody registered. */
  async resolve(key: string, context: SettingsContext): Promise<ResolvedSetting> {
    const setting = this.registry.require(key);
    const layers = await this.#layers(await this.#scope(context));
    return this.#resolveOne(setting, layers);
  }

  /** Every key resolved at once (one read of each layer): for code that needs many keys. */
  async snapshot(context: SettingsContext): Promise<Map<string, ResolvedSetting>> {
    const layers = await this.#layers(await this.#scope(context));
    return new Map(
      this.registry.list().map((setting) => [setting.definition.key, this.#resolveOne(setting, layers)]),
    );
  }

  /** Shorthand: the effective value only. */
  async value<T>(key: string, context: SettingsContext = {}): Promise<T> {
    return (await this.resolve(key, context)).value as T;
  }

  /** A secret setting's value, for the server's own use (a request header); never for a response. */
  async revealSecret(key: string): Promise<string | undefined> {
    const setting = this.registry.require(key);
    if (!setting.definition.secret) throw new Error(`'${key}' is not a secret setting.`);
    const stored = await this.#repository.get<unknown>('user', SCOPE_ID_OF_USER, key);
    if (!isSecretReference(stored)) return undefined;
    const value = await this.#options.secrets.reveal(stored.$secret);
    this.#options.redactor?.add(value);
    return value;
  }

  /** Every registered key's effective value for the context, with its layer. */
  async effective(context: SettingsContext): Promise<{
    projectId: string | null;
    conversationId: string | null;
    settings: EffectiveSetting[];
  }> {
    const scope = await this.#scope(context);
    const layers = await this.#layers(scope);
    const settings: EffectiveSetting[] = [];
    for (const setting of this.registry.list()) {
      const { definition } = setting;
      const resolved = this.#resolveOne(setting, layers);
      const entry: EffectiveSetting = {
        key: definition.key,
        layer: resolved.layer,
        set_at: resolved.setAt,
        secret: definition.secret,
        has_value: definition.secret
          ? resolved.setAt.length > 0
          : resolved.value !== null && resolved.value !== undefined,
        effect: definition.effect,
      };
      if (!definition.secret) entry.value = resolved.value;
      if (definition.effect === 'restart' && this.#startup.has(definition.key)) {
        entry.pending_restart = JSON.stringify(resolved.value) !== this.#startup.get(definition.key);
      }
      settings.push(entry);
    }
    return { projectId: scope.projectId, conversationId: scope.conversationId, settings };
  }

  /**
   * Writes values at one layer. Every key is checked first (it exists, may be set at this layer,
   * fits its schema); one bad value writes nothing. `null` for a secret removes it.
   */
  async write(
    target: { layer: WritableSettingLayer; scope_id?: string | undefined },
    values: Readonly<Record<string, unknown>>,
  ): Promise<{ key: string; effect: SettingEffect }[]> {
    const scopeId = await this.#checkTarget(target);
    const entries = Object.entries(values);
    if (entries.length === 0) throw new ApiError('INVALID_INPUT', 'Name at least one setting to write.');
    const problems: { key: string; code: string; message: string; problems?: unknown }[] = [];
    const planned: { setting: RegisteredSetting; value: unknown }[] = [];
    for (const [key, value] of entries) {
      const setting = this.registry.get(key);
      if (setting === undefined) {
        problems.push({ key, code: 'NOT_FOUND', message: `There is no setting '${key}'.` });
        continue;
      }
      if (!setting.definition.layers.includes(target.layer)) {
        problems.push({
          key,
          code: 'LAYER_NOT_ALLOWED',
          message: `'${key}' can be set at ${setting.definition.layers.join(', ')}, not at ${target.layer}.`,
        });
        continue;
      }
      if (value === null && (setting.definition.secret || setting.configKey !== undefined)) {
        planned.push({ setting, value: undefined });
        continue;
      }
      try {
        this.registry.check(key, value);
        planned.push({ setting, value });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        problems.push({
          key,
          code: error.code === 'INVALID_INPUT' ? 'INVALID_VALUE' : error.code,
          message: error.message,
          problems: error.details['problems'],
        });
      }
    }
    if (problems.length > 0) {
      throw new ApiError(
        'INVALID_INPUT',
        problems.length === 1
          ? (problems[0] as { message: string }).message
          : `${problems.length} settings were not accepted; nothing was written.`,
        { details: { layer: target.layer, problems } },
      );
    }
    const configChanges: Record<string, unknown> = {};
    for (const { setting, value } of planned) {
      const { key } = setting.definition;
      if (setting.definition.secret)
        await this.#writeSecret(key, target.layer, scopeId, value as string | undefined);
      else if (setting.configKey !== undefined && target.layer === 'user')
        configChanges[setting.configKey] = value;
      else if (value === undefined) await this.#repository.remove(target.layer, scopeId, key);
      else await this.#repository.set(target.layer, scopeId, key, value);
    }
    if (Object.keys(configChanges).length > 0) await this.#options.configYaml.write(configChanges);
    const changed = planned.map(({ setting, value }) => ({
      key: setting.definition.key,
      effect: setting.definition.effect,
      reset: value === undefined,
    }));
    this.#announce(target.layer, scopeId, changed);
    return changed.map(({ key, effect }) => ({ key, effect }));
  }

  /** Removes a key's value at one layer: the next layer down shows through again. */
  async reset(
    target: { layer: WritableSettingLayer; scope_id?: string | undefined },
    key: string,
  ): Promise<{ key: string; effect: SettingEffect }> {
    const scopeId = await this.#checkTarget(target);
    const setting = this.registry.require(key);
    if (setting.definition.secret) await this.#writeSecret(key, target.layer, scopeId, undefined);
    else if (setting.configKey !== undefined && target.layer === 'user') {
      await this.#options.configYaml.write({ [setting.configKey]: undefined });
    } else await this.#repository.remove(target.layer, scopeId, key);
    this.#announce(target.layer, scopeId, [{ key, effect: setting.definition.effect, reset: true }]);
    return { key, effect: setting.definition.effect };
  }

  /** Every stored value of one scope is gone (its project or conversation was deleted). */
  async forgetScope(layer: 'project' | 'conversation', scopeId: string): Promise<void> {
    await this.#options.db
      .deleteFrom('settings')
      .where('scope', '=', layer)
      .where('scope_id', '=', scopeId)
      .execute();
  }

  #announce(layer: WritableSettingLayer, scopeId: string, changes: SettingsChangedPayload['changes']): void {
    const payload: SettingsChangedPayload = {
      layer,
      scope_id: layer === 'user' ? null : scopeId,
      changes,
    };
    this.#options.stream.publish('settings.changed', payload);
    if (changes.some((change) => this.registry.get(change.key)?.definition.effect === 'restart')) {
      void this.#writeRestartReport().catch(() => {});
    }
  }

  async #writeSecret(
    key: string,
    layer: WritableSettingLayer,
    scopeId: string,
    value: string | undefined,
  ): Promise<void> {
    const { secrets, db } = this.#options;
    const stored = await this.#repository.get<unknown>(layer, scopeId, key);
    await db.transaction().execute(async (transaction) => {
      const repository = new SettingsRepository(transaction);
      if (value === undefined) {
        if (isSecretReference(stored)) await secrets.delete(stored.$secret, transaction);
        await repository.remove(layer, scopeId, key);
        return;
      }
      if (isSecretReference(stored)) await secrets.replace(stored.$secret, value, transaction);
      else {
        const id = await secrets.put(`setting ${key}`, value, transaction);
        await repository.set(layer, scopeId, key, { $secret: id } satisfies SecretReference);
      }
    });
    if (value !== undefined) this.#options.redactor?.add(value);
  }

  async #checkTarget(target: {
    layer: WritableSettingLayer;
    scope_id?: string | undefined;
  }): Promise<string> {
    if (target.layer === 'user') return SCOPE_ID_OF_USER;
    const id = target.scope_id;
    if (id === undefined || id === '') {
      throw new ApiError('INVALID_INPUT', `Writing at the ${target.layer} layer needs its scope_id.`, {
        details: { layer: target.layer },
      });
    }
    const table = target.layer === 'project' ? 'projects' : 'conversations';
    const row = await this.#options.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst();
    if (row === undefined) throw notFound(target.layer, id);
    return id;
  }

  async #scope(
    context: SettingsContext,
  ): Promise<{ projectId: string | null; conversationId: string | null }> {
    const conversationId = context.conversationId ?? null;
    let projectId = context.projectId ?? null;
    if (conversationId !== null) {
      const row = await this.#options.db
        .selectFrom('conversations')
        .select('project_id')
        .where('id', '=', conversationId)
        .executeTakeFirst();
      if (row === undefined) throw notFound('conversation', conversationId);
      projectId = row.project_id;
    }
    return { projectId, conversationId };
  }

  async #layers(scope: { projectId: string | null; conversationId: string | null }): Promise<{
    user: Record<string, unknown>;
    configYaml: Record<string, unknown>;
    project: Record<string, unknown>;
    conversation: Record<string, unknown>;
  }> {
    const [user, configYaml, project, conversation] = await Promise.all([
      this.#repository.all('user', SCOPE_ID_OF_USER),
      this.#options.configYaml.read(),
      scope.projectId === null ? {} : this.#repository.all('project', scope.projectId),
      scope.conversationId === null ? {} : this.#repository.all('conversation', scope.conversationId),
    ]);
    return { user, configYaml, project, conversation };
  }

  #resolveOne(
    setting: RegisteredSetting,
    layers: {
      user: Record<string, unknown>;
      configYaml: Record<string, unknown>;
      project: Record<string, unknown>;
      conversation: Record<string, unknown>;
    },
  ): ResolvedSetting {
    const { definition, configKey } = setting;
    let value: unknown = definition.schema.default ?? null;
    let layer: SettingLayer = 'system';
    const setAt: WritableSettingLayer[] = [];
    const userValue = configKey === undefined ? layers.user[definition.key] : layers.configYaml[configKey];
    const candidates: [WritableSettingLayer, unknown][] = [
      ['user', userValue],
      ['project', layers.project[definition.key]],
      ['conversation', layers.conversation[definition.key]],
    ];
    for (const [candidateLayer, candidate] of candidates) {
      if (candidate === undefined || !definition.layers.includes(candidateLayer)) continue;
      if (definition.secret) {
        if (isSecretReference(candidate)) {
          setAt.push(candidateLayer);
          layer = candidateLayer;
        }
        continue;
      }
      // A value someone wrote into config.yaml by hand that the schema rejects counts as unset.
      if (!setting.validate(candidate)) continue;
      value = mergeValue(value, candidate, definition.array_merge ?? 'replace');
      layer = candidateLayer;
      setAt.push(candidateLayer);
    }
    return { value: definition.secret ? undefined : value, layer, setAt };
  }
}
