import {
  startFakeAnthropic,
  startFakeOpenAI,
  type FakeServer,
  type FakeServerOptions,
} from '@youyou/testing';
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/index.ts';
import type { ConversationView } from '../../src/conversations/index.ts';
import type { DatabaseKind, TestDatabase } from './databases.ts';
import { createTempDirectories, type TempDirectories } from './temp-directories.ts';
import { EXAMPLE_EXTENSION } from './example-extension.ts';

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Default: the server's token; `null` sends none. */
  token?: string | null;
}

/** A workbench server in this process with a fake model server behind it, for one test file. */
export interface TestServer {
  kind: DatabaseKind;
  server: RunningServer;
  url: string;
  token: string;
  directories: TempDirectories;
  fake: FakeServer;
  /** Every log line the server wrote. */
  logs: string[];
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** A request that must succeed; returns its JSON body. */
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** Waits until a run has ended and returns the conversation Query. */
  settled(conversationId: string, runId: string): Promise<ConversationView>;
  /** Stops the server (the database and directories stay, for a restart). */
  stop(): Promise<void>;
  /** A new server on the same data directory and database. */
  restart(options?: Partial<ServerOptions>): Promise<void>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  database: TestDatabase;
  fake?: FakeServerOptions;
  /** Register the fake server as provider `fake` with model `fake-model`; default true. */
  provider?: boolean;
  wire?: 'openai' | 'anthropic';
  server?: Partial<ServerOptions>;
  /**
   * Lightweight tasks fall back to the chat model (`models.lightweight_fallback`); default false
   * here, so a scripted fake model gets no title or classifier requests a test did not ask for.
   */
  lightweightFallback?: boolean;
}

/**
 * The T0 baseline (spec §6): with `YOUYOU_TEST_EXTENSIONS=example` every test server starts with
 * the example extension installed (through the API, permissions accepted), and with
 * `example-uninstalled` it is installed and uninstalled again before the test runs — the core
 * suite must pass the same in all three states. Unset: no extension (the default).
 */
async function applyTestExtensions(server: RunningServer): Promise<void> {
  const mode = process.env['YOUYOU_TEST_EXTENSIONS'];
  if (mode === undefined || mode === '') return;
  if (mode !== 'example' && mode !== 'example-uninstalled')
    throw new Error(`YOUYOU_TEST_EXTENSIONS is 'example' or 'example-uninstalled', not '${mode}'`);
  const host = server.services.extensions;
  const preview = await host.preview(EXAMPLE_EXTENSION);
  if (!preview.ok || preview.permissions === null)
    throw new Error(`the example extension does not load: ${JSON.stringify(preview.problems)}`);
  await host.install({ staging_id: preview.staging_id, accepted_permissions: preview.permissions });
  if (mode === 'example-uninstalled') await host.uninstall('example');
}

export async function startTestServer(options: TestServerOptions): Promise<TestServer> {
  const directories = await createTempDirectories();
  const fake =
    options.wire === 'anthropic'
      ? await startFakeAnthropic({ fallback: 'echo', ...options.fake })
      : await startFakeOpenAI({ fallback: 'echo', ...options.fake });
  const logs: string[] = [];
  const baseOptions = (extra: Partial<ServerOptions> = {}): ServerOptions => ({
    port: 0,
    home: directories.home,
    dataDirectory: directories.dataDirectory,
    workspaceRoots: [directories.root],
    ...(options.database.url === undefined ? {} : { databaseUrl: options.database.url }),
    logDestination: { write: (line: string) => logs.push(line) },
    heartbeatMs: 1_000,
    // Tests that are not about confirmation cards run mutating tools at once.
    mutatingToolPolicy: 'auto',
    ...options.server,
    ...extra,
  });
  let server = await startServer(baseOptions());
  // A stored setting: it holds across restart() on the same database.
  if (options.lightweightFallback !== true)
    await server.services.settings.set('user', '', 'models.lightweight_fallback', false);
  await applyTestExtensions(server);

  const request = async <T>(
    method: string,
    path: string,
    requestOptions: RequestOptions = {},
  ): Promise<ApiResponse<T>> => {
    const token = requestOptions.token === undefined ? server.token : requestOptions.token;
    const headers: Record<string, string> = { ...requestOptions.headers };
    if (token !== null) headers['authorization'] = `Bearer ${token}`;
    let body: FormData | string | undefined;
    if (requestOptions.body instanceof FormData) body = requestOptions.body;
    else if (typeof requestOptions.body === 'string') body = requestOptions.body;
    else if (requestOptions.body !== undefined) {
      body = JSON.stringify(requestOptions.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      redirect: 'manual',
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: the text itself
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  };

  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await request<T>(method, path, body === undefined ? {} : { body });
    if (response.status >= 300)
      throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body;
  };

  const settled = async (conversationId: string, runId: string): Promise<ConversationView> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const run = await call<{ status: string }>('GET', `/api/runs/${runId}`);
      if (!['pending', 'running', 'waiting_hitl'].includes(run.status)) break;
      if (Date.now() > deadline) throw new Error(`run ${runId} is still ${run.status}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return call<ConversationView>('GET', `/api/conversations/${conversationId}`);
  };

  const testServer: TestServer = {
    kind: options.database.kind,
    get server() {
      return server;
    },
    get url() {
      return server.url;
    },
    get token() {
      return server.token;
    },
    directories,
    fake,
    logs,
    request,
    call,
    settled,
    stop: () => server.close(),
    restart: async (extra) => {
      await server.close();
      server = await startServer(baseOptions(extra));
    },
    close: async () => {
      await server.close();
      await fake.close();
      await directories.remove();
    },
  };
  if (options.provider !== false) {
    await call('POST', '/api/providers', {
      name: 'fake',
      kind: options.wire === 'anthropic' ? 'anthropic' : 'openai-compatible',
      base_url: fake.url,
      api_key: 'sk-fake-key-for-tests-0001',
      models: [{ id: 'fake-model', context_window: 200_000, capabilities: { vision: true } }],
    });
  }
  return testServer;
}

/** Creates a conversation and sends one message; returns their ids. */
export async function sendFirstMessage(
  server: TestServer,
  text: string,
  extra: Record<string, unknown> = {},
): Promise<{ conversationId: string; runId: string; userMessageId: string }> {
  const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {});
  const sent = await server.call<{ run: { id: string }; user_message_id: string }>(
    'POST',
    `/api/conversations/${conversation.id}/messages`,
    { text, ...extra },
  );
  return { conversationId: conversation.id, runId: sent.run.id, userMessageId: sent.user_message_id };
}
