import { Hono } from 'hono';
import { chatCompletion, listAgentModels, parseChatCompletionRequest } from '../../protocols/openai/index.ts';
import { ApiError } from '../../errors/index.ts';
import type { HttpEnv, ServerServices } from '../../services/index.ts';

/**
 * The OpenAI-compatible agent endpoint, at `/v1` (where OpenAI clients look when given the
 * server's URL + `/v1` as their base URL): `GET /v1/models`, `POST /v1/chat/completions`.
 */
export function openAiRoutes(services: ServerServices) {
  return new Hono<HttpEnv>()
    .get('/models', async (c) => c.json(await listAgentModels(services), 200))
    .post('/chat/completions', async (c) => {
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        throw new ApiError('INVALID_INPUT', 'The body is not JSON.');
      }
      return chatCompletion(services, parseChatCompletionRequest(body), c.req.raw.signal);
    });
}
