import type { ModelCapabilities } from '@youyou/agent';
import type { ModelConfig } from '../models/index.ts';
import { positiveInteger, record } from '../http/index.ts';

/** At most this many `/api/show` calls are made at once. */
const SHOW_CONCURRENCY = 4;
/** Each native call may take this long; a slow answer only means fewer details. */
const DETAIL_TIMEOUT_MS = 5_000;

async function fetchJson(
  url: string,
  headers: Readonly<Record<string, string>>,
  body?: unknown,
): Promise<unknown> {
  try {
    const response = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(DETAIL_TIMEOUT_MS),
    });
    if (!response.ok) return undefined;
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}

/** The server's root: the base URL without the `/v1` the OpenAI-compatible API hangs off. */
export function serverRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/**
 * Whether a server may be Ollama or llama.cpp, so their own endpoints are worth asking: a
 * plain-HTTP (self-hosted) server, or a listing that says so (Ollama's `owned_by: library`,
 * llama.cpp's `owned_by: llamacpp` and `meta`).
 */
export function mayHaveServerDetails(baseURL: string, listing: unknown): boolean {
  if (baseURL.startsWith('http://')) return true;
  const data = record(listing)['data'];
  return (
    Array.isArray(data) &&
    data.some((item) => {
      const entry = record(item);
      return entry['owned_by'] === 'library' || entry['owned_by'] === 'llamacpp' || 'meta' in entry;
    })
  );
}

/**
 * What Ollama's `POST /api/show` says about one model: its context window (the `num_ctx` it is
 * run with when its parameters set one, else the length it was trained for, `<arch>.context_length`)
 * and, from `capabilities` (Ollama ≥ 0.6.4), tools, vision, thinking — and whether it is an
 * embedding model.
 *
 * @example
 * readOllamaShow({ capabilities: ['completion', 'tools'], model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40960 } });
 * // { contextWindow: 40960, capabilities: { toolUse: true, vision: false, reasoning: false }, kind: 'chat' }
 */
export function readOllamaShow(document: unknown): Omit<ModelConfig, 'id'> {
  const show = record(document);
  const details: Omit<ModelConfig, 'id'> = {};
  const parameters = typeof show['parameters'] === 'string' ? show['parameters'] : '';
  const numCtx = /^\s*num_ctx\s+(\d+)\s*$/m.exec(parameters);
  const info = record(show['model_info']);
  const architecture = info['general.architecture'];
  const trained =
    (typeof architecture === 'string'
      ? positiveInteger(info[`${architecture}.context_length`])
      : undefined) ??
    Object.entries(info)
      .filter(([key]) => key.endsWith('.context_length'))
      .map(([, value]) => positiveInteger(value))
      .find((value) => value !== undefined);
  const contextWindow = numCtx === null ? trained : Number(numCtx[1]);
  if (contextWindow !== undefined && contextWindow > 0) details.contextWindow = contextWindow;
  const reported = show['capabilities'];
  if (Array.isArray(reported)) {
    const capabilities: Partial<ModelCapabilities> = {
      toolUse: reported.includes('tools'),
      vision: reported.includes('vision'),
      reasoning: reported.includes('thinking'),
    };
    details.capabilities = capabilities;
    details.kind = reported.includes('embedding') && !reported.includes('completion') ? 'embedding' : 'chat';
  }
  return details;
}

/**
 * What llama.cpp's `GET /props` says about the model it serves: the context size it runs with
 * (`default_generation_settings.n_ctx`) and whether it takes images (`modalities.vision`).
 *
 * @example
 * readLlamaCppProps({ default_generation_settings: { n_ctx: 8192 }, modalities: { vision: false } });
 * // { contextWindow: 8192, capabilities: { vision: false } }
 */
export function readLlamaCppProps(document: unknown): Omit<ModelConfig, 'id'> {
  const props = record(document);
  const details: Omit<ModelConfig, 'id'> = {};
  const contextWindow =
    positiveInteger(record(props['default_generation_settings'])['n_ctx']) ?? positiveInteger(props['n_ctx']);
  if (contextWindow !== undefined) details.contextWindow = contextWindow;
  const vision = record(props['modalities'])['vision'];
  if (typeof vision === 'boolean') details.capabilities = { vision };
  return details;
}

function withDetails(model: ModelConfig, details: Omit<ModelConfig, 'id'>): ModelConfig {
  return {
    ...model,
    ...details,
    ...(model.capabilities === undefined && details.capabilities === undefined
      ? {}
      : { capabilities: { ...model.capabilities, ...details.capabilities } }),
  };
}

/**
 * Adds what Ollama and llama.cpp report on their own endpoints to a `GET /models` listing, which
 * carries bare ids on both: Ollama's `GET /api/tags` (is it Ollama?) then `POST /api/show` per
 * model; llama.cpp's `n_ctx_train` from the listing's `meta`, then `GET /props` for the context
 * size it really runs with. Any of these failing leaves the listing as it was.
 *
 * @example
 * const models = await addServerDetails('http://127.0.0.1:11434/v1', {}, listing, readOpenAIModelList(listing));
 */
export async function addServerDetails(
  baseURL: string,
  headers: Readonly<Record<string, string>>,
  listing: unknown,
  models: readonly ModelConfig[],
): Promise<ModelConfig[]> {
  if (models.length === 0 || !mayHaveServerDetails(baseURL, listing)) return [...models];
  const root = serverRoot(baseURL);
  const data = record(listing)['data'];
  const entries = Array.isArray(data) ? data.map(record) : [];
  const isLlamaCpp = entries.some((entry) => entry['owned_by'] === 'llamacpp' || 'meta' in entry);
  if (isLlamaCpp) {
    const props = readLlamaCppProps(await fetchJson(`${root}/props`, headers));
    return models.map((model) => {
      const meta = record(entries.find((entry) => entry['id'] === model.id)?.['meta']);
      const trained = positiveInteger(meta['n_ctx_train']);
      const details = { ...(trained === undefined ? {} : { contextWindow: trained }), ...props };
      return withDetails(model, details);
    });
  }
  const tags = record(await fetchJson(`${root}/api/tags`, headers))['models'];
  if (!Array.isArray(tags)) return [...models];
  const names = new Set(
    tags.map((tag) => record(tag)['name'] ?? record(tag)['model']).filter((name) => typeof name === 'string'),
  );
  const detailed = [...models];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < detailed.length) {
      const index = next;
      next += 1;
      const model = detailed[index];
      if (model === undefined || !names.has(model.id)) continue;
      const show = await fetchJson(`${root}/api/show`, headers, { model: model.id });
      if (show !== undefined) detailed[index] = withDetails(model, readOllamaShow(show));
    }
  };
  await Promise.all(Array.from({ length: Math.min(SHOW_CONCURRENCY, detailed.length) }, worker));
  return detailed;
}
