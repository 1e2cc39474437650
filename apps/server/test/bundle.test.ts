import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_PARSE_LIMITS } from '@youyou/contracts';
import { documentFixtures } from '@youyou/testing/documents';
import { fakeTextReply, startFakeOpenAI } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_FILE, buildServerBundle, escapeNonAscii } from '../src/bundle/index.ts';
import { BUNDLED_WORKER_FILE, ParseWorkerPool } from '../src/documents/worker-pool.ts';
import { SERVER_VERSION } from '../src/server/index.ts';
import { callServer, startChildServer } from './support/child-server.ts';
import { createTempDirectories, type TempDirectories } from './support/temp-directories.ts';

describe('the bundled server (npm start)', () => {
  let directories: TempDirectories;
  const outfile = join(BUNDLE_FILE, '..', `test-${randomBytes(4).toString('hex')}.mjs`);

  beforeAll(async () => {
    directories = await createTempDirectories();
    await buildServerBundle(outfile);
    // esbuild over the whole server: seconds alone, far longer on a loaded two-core machine.
  }, 120_000);

  afterAll(async () => {
    await rm(outfile, { force: true });
    await rm(join(outfile, '..', BUNDLED_WORKER_FILE), { force: true });
    await directories?.remove();
  });

  it('writes the parse worker beside the server, and it parses a docx', async () => {
    const fixture = (await documentFixtures({ logRows: 5, bombBytes: 1024 })).get('report-en.docx');
    if (fixture === undefined) throw new Error('no report-en.docx');
    const pool = new ParseWorkerPool({
      url: pathToFileURL(join(outfile, '..', BUNDLED_WORKER_FILE)),
      execArgv: [],
    });
    try {
      const result = await pool.parse(
        'builtin-docx',
        { bytes: fixture.bytes, name: fixture.name, media_type: fixture.media_type, format: 'docx' },
        { limits: DEFAULT_PARSE_LIMITS, signal: new AbortController().signal, progress: () => {} },
      );
      expect(result).toMatchObject({ ok: true, document: { metadata: { title: 'Quarterly Report' } } });
    } finally {
      await pool.close();
    }
  });

  it('is ASCII only, so V8 holds its source at one byte per character', async () => {
    expect(/[^\p{ASCII}]/u.exec(await readFile(outfile, 'utf8'))).toBeNull();
  });

  it('escapes non-ASCII without changing what strings and regular expressions mean', () => {
    const source = "[/^第([一二三]{1,3})步$/u.exec('第二步')?.[1], /[😀，]/u.test('😀'), '标题—😀']";
    const escaped = escapeNonAscii(source);
    expect(escaped).toMatch(/^[\p{ASCII}]*$/u);
    expect(new Function(`return ${escaped}`)()).toEqual(['二', true, '标题—😀']);
  });

  it('starts from one file, knows its version, and runs a conversation', async () => {
    const fake = await startFakeOpenAI({ script: [fakeTextReply('bundled ', 'answer')] });
    const server = await startChildServer({
      home: directories.home,
      dataDirectory: directories.dataDirectory,
      workspaceRoot: directories.root,
      entry: outfile,
    });
    try {
      expect(await callServer(server, 'GET', '/api/health')).toMatchObject({
        status: 'ok',
        version: SERVER_VERSION,
      });
      await callServer(server, 'POST', '/api/providers', {
        name: 'fake',
        kind: 'openai-compatible',
        base_url: fake.url,
        models: [{ id: 'fake-model' }],
      });
      const conversation = await callServer<{ id: string }>(server, 'POST', '/api/conversations', {});
      const sent = await callServer<{ run: { id: string } }>(
        server,
        'POST',
        `/api/conversations/${conversation.id}/messages`,
        {
          text: 'hello',
        },
      );
      let status = '';
      for (let attempt = 0; attempt < 200 && status !== 'completed'; attempt++) {
        status = (await callServer<{ status: string }>(server, 'GET', `/api/runs/${sent.run.id}`)).status;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const view = await callServer<{ messages: { parts: { text?: string }[] }[] }>(
        server,
        'GET',
        `/api/conversations/${conversation.id}`,
      );
      expect(view.messages[1]?.parts[0]?.text).toBe('bundled answer');
      fake.assertDone();
    } finally {
      await server.kill();
      await fake.close();
    }
  });
});
