import type { EmbeddingProvider, Reranker } from '@youyou/contracts';
import { ApiError } from '../errors/index.ts';

/** Where a model is served. */
export interface ModelEndpoint {
  /** The API root, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  apiKey: string;
  /** The model's own id on that server. */
  model: string;
}

const TIMEOUT_MS = 60_000;

async function post(
  url: string,
  endpoint: ModelEndpoint,
  body: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(endpoint.apiKey === '' ? {} : { authorization: `Bearer ${endpoint.apiKey}` }),
      },
      body: JSON.stringify(body),
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
  } catch (error) {
    throw new ApiError('SERVICE_UNAVAILABLE', `The model server at ${url} could not be reached.`, {
      retryable: true,
      cause: error,
    });
  }
  if (!response.ok) {
    const text = (await response.text().catch(() => '')).slice(0, 300);
    throw new ApiError(
      'SERVICE_UNAVAILABLE',
      `The model server answered ${response.status} at ${url}: ${text}`,
      {
        retryable: response.status === 429 || response.status >= 500,
        details: { status: response.status },
      },
    );
  }
  return response.json();
}

/** Texts per request: servers cap batch sizes (OpenAI at 2048 inputs; local servers lower). */
const BATCH = 64;

/**
 * An EmbeddingProvider over the OpenAI-compatible `POST {base}/embeddings` (OpenAI, vLLM, Ollama,
 * llama.cpp, text-embeddings-inference …). Vectors are L2-normalised, so cosine is a dot product.
 *
 * @example
 * const embeddings = openaiEmbeddings('local/bge-m3', { baseUrl: 'http://127.0.0.1:8080/v1', apiKey: '', model: 'bge-m3' });
 */
export function openaiEmbeddings(id: string, endpoint: ModelEndpoint): EmbeddingProvider {
  return {
    id,
    async embed(texts, options) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += BATCH) {
        const input = texts.slice(start, start + BATCH);
        const body = (await post(
          `${endpoint.baseUrl}/embeddings`,
          endpoint,
          { model: endpoint.model, input, encoding_format: 'float' },
          options.signal,
        )) as { data?: { index?: number; embedding?: unknown }[] };
        const data = [...(body.data ?? [])].sort((left, right) => (left.index ?? 0) - (right.index ?? 0));
        if (data.length !== input.length || !data.every((entry) => Array.isArray(entry.embedding)))
          throw new ApiError(
            'SERVICE_UNAVAILABLE',
            `The embedding server returned ${data.length} vectors for ${input.length} texts.`,
          );
        for (const entry of data) vectors.push(normalise(Float32Array.from(entry.embedding as number[])));
      }
      return vectors;
    },
  };
}

/**
 * A Reranker over the Jina/Cohere-style `POST {base}/rerank` (`{ model, query, documents, top_n }`
 * → `{ results: [{ index, relevance_score }] }`), which text-embeddings-inference and vLLM speak too.
 *
 * @example
 * const reranker = httpReranker('local/bge-reranker', { baseUrl: 'http://127.0.0.1:8081/v1', apiKey: '', model: 'bge-reranker' });
 */
export function httpReranker(id: string, endpoint: ModelEndpoint): Reranker {
  return {
    id,
    async rerank(query, documents, options) {
      const body = (await post(
        `${endpoint.baseUrl}/rerank`,
        endpoint,
        { model: endpoint.model, query, documents, top_n: options.top_n, return_documents: false },
        options.signal,
      )) as { results?: { index?: number; relevance_score?: number; score?: number }[] };
      return (body.results ?? [])
        .filter(
          (result) =>
            typeof result.index === 'number' && result.index >= 0 && result.index < documents.length,
        )
        .map((result) => ({
          index: result.index as number,
          score: result.relevance_score ?? result.score ?? 0,
        }))
        .sort((left, right) => right.score - left.score)
        .slice(0, options.top_n);
    },
  };
}

/** `vector` scaled to length 1 (a zero vector stays zero). */
export function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const length = Math.sqrt(sum);
  if (length === 0) return vector;
  for (let index = 0; index < vector.length; index += 1) vector[index] = (vector[index] ?? 0) / length;
  return vector;
}
