import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { anthropicWire } from './anthropic-wire.ts';
import type { FakeReply, RecordedRequest, ResolvedFakeReply } from './fake-script.ts';
import { openAIWire } from './openai-wire.ts';
import { echoReply } from './wire-format.ts';
import type { WireFormat, WireFrame } from './wire-format.ts';

export interface FakeServerOptions {
  /** Replies to chat requests, used in order; add more later with `push`. */
  script?: readonly FakeReply[];
  /**
   * The reply once the script is used up: a reply, a function of the request, or `'echo'`
   * (repeat the last user message). Without one, an unscripted request gets a 500 and
   * `assertDone` fails.
   */
  fallback?: FakeReply | 'echo' | ((request: RecordedRequest) => FakeReply);
  /** When set, requests without this key get the server's 401. */
  apiKey?: string;
  /** What `GET /v1/models` lists; default one model, `fake-model`. */
  models?: readonly Readonly<Record<string, unknown>>[];
  /** Default 0: any free port. */
  port?: number;
  /**
   * More JSON endpoints, keyed `'METHOD /path'` (e.g. Ollama's `'GET /api/tags'`): the answer, or
   * a function of the request body giving it (`undefined` answers 404).
   */
  routes?: Readonly<Record<string, unknown>>;
}

/** A running fake model server on 127.0.0.1. */
export interface FakeServer {
  /** The provider's base URL: `http://127.0.0.1:PORT/v1` for OpenAI, `http://127.0.0.1:PORT` for Anthropic. */
  readonly url: string;
  /** Every request received, in order (model listings included). */
  readonly requests: readonly RecordedRequest[];
  /** Only the chat requests. */
  readonly chatRequests: readonly RecordedRequest[];
  /** Scripted replies not yet used. */
  readonly remaining: number;
  /** Appends replies to the script. */
  push(...replies: FakeReply[]): void;
  /** Throws when scripted replies are left over or a request came that nothing answered. */
  assertDone(): void;
  /** Resolves when the request with this `index` is answered or abandoned; true when the client left early. */
  waitForClose(index: number): Promise<boolean>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(text);
}

async function writeFrames(
  response: ServerResponse,
  frames: readonly WireFrame[],
  splitBytes: number | undefined,
  headers: Record<string, string>,
): Promise<void> {
  response.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  response.flushHeaders();
  const closed = new AbortController();
  response.once('close', () => closed.abort());
  let flushed = Promise.resolve();
  const write = (bytes: Buffer): void => {
    flushed = new Promise((resolve) => response.write(bytes, () => resolve()));
  };
  try {
    for (const frame of frames) {
      if (closed.signal.aborted) return;
      switch (frame.kind) {
        case 'delay':
          await sleep(frame.ms, undefined, { signal: closed.signal });
          break;
        case 'cut':
          // Let what was written reach the client first: the cut comes after the partial reply.
          await flushed;
          await sleep(20, undefined, { signal: closed.signal });
          if (frame.mode === 'reset') response.socket?.destroy();
          else response.end();
          return;
        case 'data': {
          const bytes = Buffer.from(frame.text, 'utf8');
          if (splitBytes === undefined || splitBytes <= 0) {
            write(bytes);
            break;
          }
          for (let start = 0; start < bytes.length; start += splitBytes) {
            if (closed.signal.aborted) return;
            write(bytes.subarray(start, start + splitBytes));
            // A turn of the event loop between pieces so they leave as separate TCP segments.
            await nextTurn();
          }
          break;
        }
      }
    }
    response.end();
  } catch (error) {
    if (!closed.signal.aborted) throw error;
  }
}

/**
 * Starts a fake model server speaking `wire`. Use `startFakeOpenAI` or `startFakeAnthropic`.
 *
 * @example
 * await using server = await startFakeServer(openAIWire, { script: [fakeTextReply('Hi')] });
 */
export async function startFakeServer(
  wire: WireFormat,
  options: FakeServerOptions = {},
): Promise<FakeServer> {
  const script: FakeReply[] = [...(options.script ?? [])];
  const requests: RecordedRequest[] = [];
  const unexpected: string[] = [];
  const closeWaiters = new Map<number, Promise<boolean>>();
  const models = options.models ?? [{ id: 'fake-model' }];
  let chatSequence = 0;

  const resolve = (reply: FakeReply, record: RecordedRequest): ResolvedFakeReply =>
    reply.type === 'respond' ? resolve(reply.respond(record), record) : reply;
  const chooseReply = (record: RecordedRequest): ResolvedFakeReply | undefined => {
    const scripted = script.shift();
    if (scripted !== undefined) return resolve(scripted, record);
    const fallback = options.fallback;
    if (fallback === undefined) return undefined;
    if (fallback === 'echo') return echoReply(record);
    return resolve(typeof fallback === 'function' ? fallback(record) : fallback, record);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const record: RecordedRequest = {
      index: requests.length,
      method: request.method ?? 'GET',
      path: url.pathname,
      headers,
      body: undefined,
      receivedAt: Date.now(),
      closedEarly: false,
    };
    requests.push(record);
    closeWaiters.set(
      record.index,
      new Promise((resolve) => {
        response.once('close', () => {
          record.closedEarly = !response.writableFinished;
          resolve(record.closedEarly);
        });
      }),
    );
    record.body = await readBody(request);
    if (options.apiKey !== undefined && !wire.isAuthorized(headers, options.apiKey)) {
      const presented = (headers['authorization'] ?? headers['x-api-key'] ?? '').replace(/^Bearer /, '');
      const rendered = wire.renderError({
        type: 'unauthorized',
        ...(presented === '' ? {} : { quotedKey: presented }),
      });
      sendJson(response, rendered.status, rendered.body, { ...wire.responseHeaders(0), ...rendered.headers });
      return;
    }
    const route = options.routes?.[`${record.method} ${url.pathname}`];
    if (route !== undefined) {
      const answer: unknown =
        typeof route === 'function' ? (route as (body: unknown) => unknown)(record.body) : route;
      if (answer === undefined) sendJson(response, 404, { error: `no answer for ${url.pathname}` });
      else sendJson(response, 200, answer);
      return;
    }
    if (record.method === 'GET' && url.pathname === wire.modelsPath) {
      sendJson(response, 200, wire.renderModels(models), wire.responseHeaders(0));
      return;
    }
    if (record.method !== 'POST' || url.pathname !== wire.chatPath) {
      sendJson(response, 404, {
        error: { message: `fake ${wire.name} server: no route ${record.method} ${url.pathname}` },
      });
      return;
    }
    const reply = chooseReply(record);
    if (reply === undefined) {
      const message = `fake ${wire.name} server: no scripted reply left for request #${record.index}`;
      unexpected.push(message);
      sendJson(response, 500, { error: { message, type: 'fake_server_error' } });
      return;
    }
    chatSequence += 1;
    const vendorHeaders = wire.responseHeaders(chatSequence);
    if (reply.type !== 'stream') {
      const rendered = wire.renderError(reply);
      sendJson(response, rendered.status, rendered.body, { ...vendorHeaders, ...rendered.headers });
      return;
    }
    const streamed =
      typeof record.body === 'object' &&
      record.body !== null &&
      (record.body as { stream?: unknown }).stream === true;
    if (!streamed || reply.ignoreStream === true) {
      const rendered = wire.renderComplete(reply, record, chatSequence);
      sendJson(response, rendered.status, rendered.body, { ...vendorHeaders, ...rendered.headers });
      return;
    }
    await writeFrames(
      response,
      wire.renderStream(reply, record, chatSequence),
      reply.splitBytes,
      vendorHeaders,
    );
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { message: String(error) } });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  return {
    url: `http://127.0.0.1:${port}${wire.basePath}`,
    requests,
    get chatRequests() {
      return requests.filter((request) => request.method === 'POST' && request.path === wire.chatPath);
    },
    get remaining() {
      return script.length;
    },
    push: (...replies) => {
      script.push(...replies);
    },
    assertDone: () => {
      const problems = [...unexpected];
      if (script.length > 0)
        problems.push(`fake ${wire.name} server: ${script.length} scripted replies were never requested`);
      if (problems.length > 0) throw new Error(problems.join('\n'));
    },
    waitForClose: (index) => closeWaiters.get(index) ?? Promise.reject(new Error(`no request #${index}`)),
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * Starts a fake OpenAI-compatible server (`POST /v1/chat/completions`, `GET /v1/models`) on
 * 127.0.0.1 that streams the real Chat Completions wire format.
 *
 * @example
 * const server = await startFakeOpenAI({ script: [fakeTextReply('Hello')] });
 * const provider = openaiCompatible({ id: 'fake', baseURL: server.url, models: [{ id: 'fake-model' }] });
 * // … run the agent …
 * server.assertDone();
 * await server.close();
 */
export function startFakeOpenAI(options: FakeServerOptions = {}): Promise<FakeServer> {
  return startFakeServer(openAIWire, options);
}

/**
 * Starts a fake Anthropic Messages server (`POST /v1/messages`, `GET /v1/models`) on
 * 127.0.0.1 that streams the real Messages wire format.
 *
 * @example
 * await using server = await startFakeAnthropic({ script: [fakeTextReply('Hello')] });
 * const provider = anthropic({ baseURL: server.url, apiKey: 'test', models: [{ id: 'fake-model' }] });
 */
export function startFakeAnthropic(options: FakeServerOptions = {}): Promise<FakeServer> {
  return startFakeServer(anthropicWire, options);
}
