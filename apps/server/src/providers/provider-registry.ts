import { randomUUID } from 'node:crypto';
import type { ModelCapabilities, ModelInfo, ModelProvider } from '@youyou/agent';
import {
  anthropic,
  isOpenAIChatModel,
  knownModel,
  openaiCompatible,
  type ModelConfig,
} from '@youyou/providers';
import type { ModelOption, ProviderModelKind } from '@youyou/contracts';
import { sql, type Kysely } from 'kysely';
import { isUniqueViolation, type Schema } from '../database/index.ts';
import { ApiError } from '../errors/index.ts';
import { redactKeyShaped } from '../security/index.ts';
import type { SecretRedactor } from '../logging/index.ts';
import {
  ProviderConfigRepository,
  providerOptionsOfRow,
  providerViewOfRow,
  type ConfiguredModel,
  type ProviderConfigRow,
  type ProviderView,
  type SecretStore,
} from '../storage/index.ts';

/** A provider's name prefixes its model ids (`name/model`), so it is a plain slug. */
export const PROVIDER_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,39}$/;

export interface ProviderInput {
  name: string;
  kind: 'openai-compatible' | 'anthropic';
  base_url: string;
  api_key?: string;
  /** Extra headers on every request; a key belongs in `api_key`. */
  headers?: Record<string, string>;
  models?: ConfiguredModel[];
  enabled?: boolean;
}

export type ProviderChanges = Partial<Omit<ProviderInput, 'kind' | 'api_key'>> & { api_key?: string | null };

/** The outcome of `POST /api/providers/:id/test`. */
export interface ProviderTestResult {
  ok: boolean;
  models: string[];
  error?: { code: string; message: string };
  latency_ms: number;
}

function capabilitiesOf(model: ConfiguredModel): Partial<ModelCapabilities> {
  const capabilities: Partial<ModelCapabilities> = {};
  if (model.capabilities?.vision !== undefined) capabilities.vision = model.capabilities.vision;
  if (model.capabilities?.tools !== undefined) capabilities.toolUse = model.capabilities.tools;
  if (model.capabilities?.reasoning !== undefined) capabilities.reasoning = model.capabilities.reasoning;
  if (model.capabilities?.documents !== undefined) capabilities.documents = model.capabilities.documents;
  return capabilities;
}

/** Embedding and rerank models are named so by every server we know; they are never chat models. */
export function guessModelKind(modelId: string): ProviderModelKind {
  if (/rerank/i.test(modelId)) return 'rerank';
  if (/embed|bge-|e5-|gte-|minilm/i.test(modelId)) return 'embedding';
  return 'chat';
}

/**
 * OpenAI's own listing holds audio, image, moderation and Responses-only models next to the chat
 * ones; they are kept (the user may know better) but hidden from the pickers.
 */
function notForChat(baseUrl: string, modelId: string): boolean {
  try {
    return new URL(baseUrl).hostname === 'api.openai.com' && !isOpenAIChatModel(modelId);
  } catch {
    return false;
  }
}

function configuredModelOf(modelId: string, info: ModelInfo, baseUrl: string): ConfiguredModel {
  const kind = info.kind ?? guessModelKind(modelId);
  return {
    id: modelId,
    ...(info.displayName !== info.id && info.displayName !== modelId
      ? { display_name: info.displayName }
      : {}),
    context_window: info.contextWindow,
    ...(info.maxOutputTokens === undefined ? {} : { max_output_tokens: info.maxOutputTokens }),
    capabilities: {
      tools: info.capabilities.toolUse,
      vision: info.capabilities.vision,
      ...(info.capabilities.reasoning === undefined ? {} : { reasoning: info.capabilities.reasoning }),
      ...(info.capabilities.documents === undefined ? {} : { documents: info.capabilities.documents }),
    },
    kind,
    ...(kind === 'chat' && notForChat(baseUrl, modelId) ? { hidden: true } : {}),
    discovered: true,
  };
}

function modelConfigOf(model: ConfiguredModel): ModelConfig {
  return {
    id: model.id,
    ...((model.display_name ?? model.name) === undefined
      ? {}
      : { displayName: (model.display_name ?? model.name) as string }),
    ...(model.context_window === undefined ? {} : { contextWindow: model.context_window }),
    ...(model.max_output_tokens === undefined ? {} : { maxOutputTokens: model.max_output_tokens }),
    capabilities: capabilitiesOf(model),
  };
}

/**
 * Model providers configured through the API (spec §4.7): OpenAI-compatible or Anthropic, keys in
 * the secret store. Builds `ModelProvider`s for the agent pool; a model's id is `name/model`.
 *
 * @example
 * await registry.create({ name: 'local', kind: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', models: [{ id: 'qwen3:8b' }] });
 * const providers = await registry.build(); // for AgentBuilder.addProvider
 */
export class ProviderRegistry {
  readonly #db: Kysely<Schema>;
  readonly #configs: ProviderConfigRepository;
  readonly #secrets: SecretStore;
  readonly #redactor: SecretRedactor | undefined;

  constructor(db: Kysely<Schema>, secrets: SecretStore, redactor?: SecretRedactor) {
    this.#db = db;
    this.#configs = new ProviderConfigRepository(db);
    this.#secrets = secrets;
    this.#redactor = redactor;
  }

  async list(): Promise<ProviderView[]> {
    return (await this.#configs.list()).map(providerViewOfRow);
  }

  async get(id: string): Promise<ProviderView> {
    return providerViewOfRow(await this.#configs.get(id));
  }

  async create(input: ProviderInput): Promise<ProviderView> {
    checkProvider(input.name, input.base_url);
    checkHeaders(input.headers);
    const id = randomUUID();
    const now = Date.now();
    try {
      await this.#db.transaction().execute(async (transaction) => {
        const secretId =
          input.api_key === undefined || input.api_key === ''
            ? null
            : await this.#secrets.put(`provider ${input.name}`, input.api_key, transaction);
        await this.#configs.insert(
          {
            id,
            owner: null,
            name: input.name,
            kind: input.kind,
            base_url: input.base_url,
            secret_id: secretId,
            models: JSON.stringify(input.models ?? []),
            options: JSON.stringify(
              input.headers === undefined || Object.keys(input.headers).length === 0
                ? {}
                : { headers: input.headers },
            ),
            enabled: input.enabled === false ? 0 : 1,
            created_at: now,
            updated_at: now,
          },
          transaction,
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ApiError('CONFLICT', `A provider named '${input.name}' exists already.`, {
          details: { name: input.name },
        });
      }
      throw error;
    }
    if (input.api_key !== undefined) this.#redactor?.add(input.api_key);
    for (const value of Object.values(input.headers ?? {})) this.#redactor?.add(value);
    // "Models left empty" means "ask the provider": the saved provider lists what its server serves.
    if ((input.models ?? []).length === 0) {
      const discovered = await this.refresh(id).catch(() => undefined);
      if (discovered !== undefined) return discovered;
    }
    return this.get(id);
  }

  /**
   * Asks the provider's server for its models again and saves them: new ones are added, the ones
   * already listed keep what the user edited (hidden, names, context window, capabilities), and
   * models the user added by hand stay. Fails with the provider's own error when the server does
   * not answer.
   *
   * @example
   * const provider = await registry.refresh(id); // after pulling a new model into Ollama
   */
  async refresh(id: string): Promise<ProviderView> {
    const row = await this.#configs.get(id);
    const prefix = `${row.name}/`;
    let listed: readonly ModelInfo[];
    try {
      listed = await (await this.#provider(row, true)).listModels();
    } catch (error) {
      const failure = ApiError.fromUnknown(error);
      const message = this.#redactor?.redact(failure.message) ?? redactKeyShaped(failure.message);
      throw new ApiError(failure.code, message, { details: failure.details, retryable: failure.retryable });
    }
    const current = JSON.parse(row.models) as ConfiguredModel[];
    const known = new Map(current.map((model) => [model.id, model]));
    const merged = [...current];
    for (const info of listed) {
      const modelId = info.id.startsWith(prefix) ? info.id.slice(prefix.length) : info.id;
      const discovered = configuredModelOf(modelId, info, row.base_url);
      const existing = known.get(modelId);
      if (existing === undefined) {
        merged.push(discovered);
        known.set(modelId, discovered);
      } else {
        const index = merged.indexOf(existing);
        merged[index] = { ...discovered, ...existing, discovered: true };
      }
    }
    await this.#configs.update(id, { models: JSON.stringify(merged), updated_at: Date.now() });
    return this.get(id);
  }

  async update(id: string, changes: ProviderChanges): Promise<ProviderView> {
    const row = await this.#configs.get(id);
    checkProvider(changes.name ?? row.name, changes.base_url ?? row.base_url);
    checkHeaders(changes.headers);
    const options =
      changes.headers === undefined
        ? undefined
        : JSON.stringify({
            ...providerOptionsOfRow(row),
            headers: changes.headers,
          });
    try {
      await this.#db.transaction().execute(async (transaction) => {
        let secretId = row.secret_id;
        if (changes.api_key === null || changes.api_key === '') {
          if (secretId !== null) await this.#secrets.delete(secretId, transaction);
          secretId = null;
        } else if (changes.api_key !== undefined) {
          if (secretId === null)
            secretId = await this.#secrets.put(`provider ${row.name}`, changes.api_key, transaction);
          else await this.#secrets.replace(secretId, changes.api_key, transaction);
        }
        await this.#configs.update(
          id,
          {
            ...(changes.name === undefined ? {} : { name: changes.name }),
            ...(changes.base_url === undefined ? {} : { base_url: changes.base_url }),
            ...(changes.models === undefined ? {} : { models: JSON.stringify(changes.models) }),
            ...(options === undefined ? {} : { options }),
            ...(changes.enabled === undefined ? {} : { enabled: changes.enabled ? 1 : 0 }),
            secret_id: secretId,
            updated_at: Date.now(),
          },
          transaction,
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ApiError('CONFLICT', `A provider named '${changes.name ?? ''}' exists already.`);
      }
      throw error;
    }
    if (typeof changes.api_key === 'string') this.#redactor?.add(changes.api_key);
    for (const value of Object.values(changes.headers ?? {})) this.#redactor?.add(value);
    return this.get(id);
  }

  async delete(id: string): Promise<void> {
    const row = await this.#configs.get(id);
    await this.#db.transaction().execute(async (transaction) => {
      await this.#configs.delete(id, transaction);
      if (row.secret_id !== null) await this.#secrets.delete(row.secret_id, transaction);
    });
  }

  /** Changes whenever any provider is added, changed or removed (by any server). */
  async fingerprint(): Promise<string> {
    const row = await sql<{
      count: number | string;
      latest: number | string | null;
    }>`select count(*) as count,
      max(updated_at) as latest from provider_configs`.execute(this.#db);
    const first = row.rows[0];
    return `${first?.count ?? 0}:${first?.latest ?? 0}`;
  }

  /**
   * Every chat model of every enabled provider, as the pickers offer them and the agent routes
   * them: hidden models and embedding/rerank models are left out.
   */
  async models(): Promise<ModelOption[]> {
    const rows = (await this.#configs.list()).filter((row) => row.enabled === 1);
    return rows.flatMap((row) =>
      (JSON.parse(row.models) as ConfiguredModel[])
        .filter((model) => model.hidden !== true && (model.kind ?? 'chat') === 'chat')
        .map((model) => {
          const name = model.display_name ?? model.name ?? model.id;
          return {
            id: `${row.name}/${model.id}`,
            provider: row.name,
            display_name: name,
            provider_id: row.id,
            provider_name: row.name,
            name,
            ...(model.context_window === undefined ? {} : { context_window: model.context_window }),
            capabilities: model.capabilities ?? {},
          };
        }),
    );
  }

  /**
   * `ModelProvider`s for every enabled provider, keys decrypted. `maxRetries` (a run's retry
   * budget) replaces the providers' own number of retries.
   */
  async build(options: { maxRetries?: number } = {}): Promise<ModelProvider[]> {
    const rows = (await this.#configs.list()).filter((row) => row.enabled === 1);
    return Promise.all(rows.map((row) => this.#provider(row, false, options.maxRetries)));
  }

  /** The provider serving `modelId` (`name/model`), built on its own for a one-off call. */
  async providerOf(modelId: string): Promise<ModelProvider | undefined> {
    const model = (await this.models()).find((candidate) => candidate.id === modelId);
    if (model === undefined) return undefined;
    return this.#provider(await this.#configs.get(model.provider_id), false);
  }

  /**
   * The endpoint of any model of an enabled provider, whatever its kind (embedding and rerank
   * models are called directly, not through the agent): base URL, key, the model's own id.
   */
  async endpointOf(
    modelId: string,
  ): Promise<
    { baseUrl: string; apiKey: string; model: string; kind: 'chat' | 'embedding' | 'rerank' } | undefined
  > {
    for (const row of (await this.#configs.list()).filter((candidate) => candidate.enabled === 1)) {
      if (!modelId.startsWith(`${row.name}/`)) continue;
      const own = modelId.slice(row.name.length + 1);
      const model = (JSON.parse(row.models) as ConfiguredModel[]).find((candidate) => candidate.id === own);
      if (model === undefined) continue;
      const apiKey = row.secret_id === null ? '' : await this.#secrets.reveal(row.secret_id);
      this.#redactor?.add(apiKey);
      return { baseUrl: row.base_url.replace(/\/+$/, ''), apiKey, model: own, kind: model.kind ?? 'chat' };
    }
    return undefined;
  }

  /** Asks a stored provider's server for its models: the key and URL work when this succeeds. */
  async test(id: string): Promise<ProviderTestResult> {
    return this.#redacted(await probe(await this.#provider(await this.#configs.get(id), true)));
  }

  /** The same check for a provider that is not stored yet. */
  async testUnsaved(input: {
    kind: ProviderInput['kind'];
    base_url: string;
    api_key?: string;
    headers?: Record<string, string>;
    name?: string;
  }): Promise<ProviderTestResult> {
    const name = input.name !== undefined && PROVIDER_NAME_PATTERN.test(input.name) ? input.name : 'probe';
    checkProvider(name, input.base_url);
    checkHeaders(input.headers);
    if (input.api_key !== undefined) this.#redactor?.add(input.api_key);
    const options = {
      id: name,
      baseURL: input.base_url,
      apiKey: input.api_key ?? '',
      ...(input.headers === undefined ? {} : { headers: input.headers }),
      discoverModels: true,
      retry: { maxRetries: 0 },
    };
    return this.#redacted(
      await probe(
        input.kind === 'anthropic'
          ? anthropic(options)
          : openaiCompatible({ ...options, serverDetails: true, knownModel }),
      ),
    );
  }

  /** A server may quote the key it refused: the answer never carries it. */
  #redacted(result: ProviderTestResult): ProviderTestResult {
    if (result.error === undefined) return result;
    const message = this.#redactor?.redact(result.error.message) ?? redactKeyShaped(result.error.message);
    return { ...result, error: { ...result.error, message } };
  }

  async #provider(row: ProviderConfigRow, discover: boolean, maxRetries?: number): Promise<ModelProvider> {
    const apiKey = row.secret_id === null ? '' : await this.#secrets.reveal(row.secret_id);
    this.#redactor?.add(apiKey);
    const models = (JSON.parse(row.models) as ConfiguredModel[]).map(modelConfigOf);
    const listing = {
      modelIdPrefix: `${row.name}/`,
      ...(discover || models.length === 0 ? { discoverModels: true } : { models, discoverModels: false }),
    };
    // A test run fails fast instead of retrying a dead server.
    const retry = discover ? { maxRetries: 0 } : maxRetries === undefined ? undefined : { maxRetries };
    const headers = providerOptionsOfRow(row).headers;
    for (const value of Object.values(headers ?? {})) this.#redactor?.add(value);
    const common = {
      id: row.name,
      baseURL: row.base_url,
      apiKey,
      ...(headers === undefined || Object.keys(headers).length === 0 ? {} : { headers }),
      ...listing,
      ...(retry === undefined ? {} : { retry }),
    };
    if (row.kind === 'anthropic') return anthropic(common);
    // A provider configured by URL may be any server: ask Ollama's and llama.cpp's own endpoints
    // for what `/models` leaves out, and fill the rest from the table of well-known models.
    return openaiCompatible({ ...common, serverDetails: true, knownModel });
  }
}

async function probe(provider: ModelProvider): Promise<ProviderTestResult> {
  const started = performance.now();
  const latency = (): number => Math.round(performance.now() - started);
  try {
    const models: readonly ModelInfo[] = await provider.listModels();
    return { ok: true, models: models.map((model) => model.id), latency_ms: latency() };
  } catch (error) {
    const code =
      typeof (error as { code?: unknown }).code === 'string'
        ? (error as { code: string }).code
        : 'PROVIDER_ERROR';
    return {
      ok: false,
      models: [],
      error: { code, message: error instanceof Error ? error.message : String(error) },
      latency_ms: latency(),
    };
  }
}

/** Headers the workbench sets itself cannot be replaced: the key goes in `api_key`. */
const RESERVED_HEADERS = new Set(['content-type', 'accept', 'content-length', 'host']);

function checkHeaders(headers: Record<string, string> | undefined): void {
  for (const name of Object.keys(headers ?? {})) {
    if (RESERVED_HEADERS.has(name.toLowerCase())) {
      throw new ApiError(
        'INVALID_INPUT',
        `The ${name} header is set by the workbench and cannot be replaced.`,
        {
          details: { header: name },
        },
      );
    }
  }
}

function checkProvider(name: string, baseUrl: string): void {
  if (!PROVIDER_NAME_PATTERN.test(name)) {
    throw new ApiError('INVALID_INPUT', 'A provider name is 1–40 lowercase letters, digits, - or _.', {
      details: { name },
    });
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ApiError('INVALID_INPUT', `'${baseUrl}' is not a URL.`, { details: { base_url: baseUrl } });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiError('INVALID_INPUT', 'A provider URL is http:// or https://.', {
      details: { base_url: baseUrl },
    });
  }
}
