import { startFakeOpenAI } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactKeyShaped } from '../src/security/index.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { isRunEnd, readEvents } from './support/sse.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** The key the test server registers for provider `fake`. */
const KNOWN_KEY = 'sk-fake-key-for-tests-0001';
/** A key nobody told the server about, quoted back by a server (a typo'd key, another tenant's). */
const UNKNOWN_KEY = 'sk-proj-Zq8bN3vR7tK1mW5xY9cD2fG6hJ0lP4sA';

function openAIKeyError(key: string): unknown {
  // The body OpenAI sends for a wrong key (its documented `invalid_api_key` error).
  return {
    error: {
      message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_api_key',
    },
  };
}

describe('key-shaped strings', () => {
  it('OpenAI, Anthropic, Google, GitHub and Bearer credentials are redacted; ordinary words are not', () => {
    expect(redactKeyShaped(`Incorrect API key provided: ${UNKNOWN_KEY}.`)).toBe(
      'Incorrect API key provided: [redacted].',
    );
    expect(redactKeyShaped('x-api-key: sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv')).not.toContain('AbCdEf');
    expect(redactKeyShaped('key=AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUv')).not.toContain('AIzaSy');
    expect(redactKeyShaped('Authorization: Bearer abcdefghijklmnopqrstuvwxyz')).toBe(
      'Authorization: Bearer [redacted]',
    );
    expect(redactKeyShaped('ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toBe('[redacted]');
    const plain = 'The sk- prefix, a task-list and Basic information about api keys.';
    expect(redactKeyShaped(plain)).toBe(plain);
  });
});

describe.each(DATABASE_KINDS)('an API key quoted back by a provider on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  async function failRun(replies: Parameters<TestServer['fake']['push']>): Promise<string> {
    server.fake.push(...replies);
    const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {});
    let runId = '';
    const reading = readEvents({
      url: server.url,
      token: server.token,
      conversationId: conversation.id,
      after: 0,
      until: (event) => runId !== '' && isRunEnd(event, runId),
    });
    runId = (
      await server.call<{ run: { id: string } }>('POST', `/api/conversations/${conversation.id}/messages`, {
        text: 'hello',
      })
    ).run.id;
    const streamed = JSON.stringify(await reading);
    const query = JSON.stringify(await server.settled(conversation.id, runId));
    const log = JSON.stringify(await server.call('GET', `/api/conversations/${conversation.id}/event-log`));
    const run = JSON.stringify(await server.call('GET', `/api/runs/${runId}`));
    for (const [where, text] of Object.entries({ streamed, query, log, run })) {
      expect(text, where).not.toContain(KNOWN_KEY);
      expect(text, where).not.toContain(UNKNOWN_KEY);
    }
    expect(query).toContain('Incorrect API key provided: [redacted]');
    expect(streamed).toContain('[redacted]');
    return log;
  }

  it('a 401 quoting the configured key is redacted in the SSE error, the Query, the event log and the run', async () => {
    await failRun([{ type: 'http', status: 401, body: openAIKeyError(KNOWN_KEY) }]);
  });

  it('a key the server was never told about is redacted because of its shape', async () => {
    await failRun([{ type: 'http', status: 401, body: openAIKeyError(UNKNOWN_KEY) }]);
  });

  it('retry notices (429) quoting the key are redacted too', async () => {
    const limited = {
      type: 'http' as const,
      status: 429,
      body: openAIKeyError(KNOWN_KEY),
      headers: { 'retry-after-ms': '1' },
    };
    const log = await failRun([limited, limited, limited]);
    expect(log).toContain('"error"');
  });

  it('"test connection" never answers with the key it was given, saved or not', async () => {
    const guarded = await startFakeOpenAI({ apiKey: 'the-right-key-0123456789' });
    try {
      const unsaved = await server.call<{ ok: boolean; error?: { message: string } }>(
        'POST',
        '/api/providers/test',
        { kind: 'openai-compatible', base_url: guarded.url, api_key: UNKNOWN_KEY },
      );
      expect(unsaved.ok).toBe(false);
      expect(unsaved.error?.message).toContain('Incorrect API key provided: [redacted]');
      const saved = await server.call<{ id: string }>('POST', '/api/providers', {
        name: 'guarded',
        kind: 'openai-compatible',
        base_url: guarded.url,
        api_key: UNKNOWN_KEY,
      });
      const tested = await server.call('POST', `/api/providers/${saved.id}/test`);
      expect(JSON.stringify(tested)).toContain('[redacted]');
      for (const text of [JSON.stringify(unsaved), JSON.stringify(tested), server.logs.join('\n')]) {
        expect(text).not.toContain(UNKNOWN_KEY);
        expect(text).not.toContain(KNOWN_KEY);
      }
    } finally {
      await guarded.close();
    }
  });
});
