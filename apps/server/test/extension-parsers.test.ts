import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentBlocksPage, DocumentView, ParserList } from '@youyou/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { EXAMPLE_EXTENSION, installExtension } from './support/extensions.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const SAMPLE_RTF = new URL('./fixtures/sample.rtf', import.meta.url);

describe.each(DATABASE_KINDS)('document parsers from extensions on %s', (kind) => {
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

  async function uploadRtf(projectId: string, name = 'packing.rtf'): Promise<DocumentView> {
    const form = new FormData();
    form.set(
      'file',
      new Blob([new Uint8Array(await readFile(SAMPLE_RTF))], { type: 'application/rtf' }),
      name,
    );
    form.set('project_id', projectId);
    const uploaded = await server.call<{ id: string }>('POST', '/api/uploads', form);
    for (let attempt = 0; attempt < 400; attempt++) {
      const response = await server.request<DocumentView>('GET', `/api/uploads/${uploaded.id}/document`);
      if (response.status === 200 && response.body.status !== 'queued' && response.body.status !== 'parsing')
        return response.body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the document of ${name} never settled`);
  }

  async function parsers(): Promise<ParserList['parsers']> {
    return (await server.call<ParserList>('GET', '/api/parsers')).parsers;
  }

  it("the example's RTF parser is registered under the extension's source and reads a real .rtf file in its own process", async () => {
    const project = await server.call<{ id: string }>('POST', '/api/projects', { name: 'Trips' });
    // Without the extension no parser reads rtf: the structured "could not parse" result.
    const before = await uploadRtf(project.id);
    expect(before).toMatchObject({ status: 'failed', format: 'rtf', failure: { reason: 'unsupported' } });

    await installExtension(server);
    expect((await parsers()).find((parser) => parser.id === 'extension:example/rtf')).toEqual({
      id: 'extension:example/rtf',
      version: '1.0.0',
      source: 'extension:example',
      formats: ['rtf'],
      available: true,
    });
    // No built-in parser reads rtf: with no policy entry, the parsers registered for it do.
    expect((await uploadRtf(project.id)).provenance?.parser.id).toBe('extension:example/rtf');
    // Named in the project's chain, before the (absent) built-in one.
    await server.call('PUT', `/api/projects/${project.id}/parse-policy`, {
      formats: { rtf: { chain: ['extension:example/rtf', 'builtin'], cross_validate: false } },
      service: { url: null, timeout_ms: 120_000 },
      limits: {},
    });
    const document = await uploadRtf(project.id);
    expect(document).toMatchObject({
      status: expect.stringMatching(/^(parsed|indexed)$/),
      provenance: { parser: { id: 'extension:example/rtf', version: '1.0.0', source: 'extension:example' } },
      metadata: { title: 'Packing for Oslo' },
    });
    const page = await server.call<DocumentBlocksPage>('GET', `/api/documents/${document.id}/blocks`);
    expect(page.blocks.map((entry) => entry.block)).toEqual([
      expect.objectContaining({ type: 'paragraph', text: 'Packing for Oslo' }),
      expect.objectContaining({
        type: 'paragraph',
        text: 'Bring a warm coat and an umbrella; café stops are frequent.',
      }),
      expect.objectContaining({ type: 'paragraph', text: 'Temperature: −5 °C at night.' }),
    ]);
  });

  it('a parser that hangs is stopped at its time cap and one that crashes gives its exit; both are "could not parse" results, and the chain falls back', async () => {
    const copy = join(server.directories.root, 'example-broken-parsers');
    await rm(copy, { recursive: true, force: true });
    await cp(EXAMPLE_EXTENSION, copy, { recursive: true });
    await writeFile(join(copy, 'parsers', 'hang.mjs'), 'setInterval(() => {}, 1000);\n');
    await writeFile(
      join(copy, 'parsers', 'crash.mjs'),
      "process.stderr.write('cannot read this dialect');\nprocess.exit(3);\n",
    );
    for (const [id, timeout] of [
      ['hang', 300],
      ['crash', 5000],
    ] as const)
      await writeFile(
        join(copy, 'parsers', `${id}.json`),
        JSON.stringify({
          id,
          version: '0.1.0',
          formats: ['rtf'],
          script: `parsers/${id}.mjs`,
          timeout_ms: timeout,
        }),
      );
    const manifest = JSON.parse(await readFile(join(copy, 'extension.json'), 'utf8')) as {
      provides: { parsers: string[] };
    };
    manifest.provides.parsers.push('parsers/hang.json', 'parsers/crash.json');
    await writeFile(join(copy, 'extension.json'), JSON.stringify(manifest));
    await installExtension(server, copy);

    const project = await server.call<{ id: string }>('POST', '/api/projects', { name: 'Broken' });
    const policy = (chain: string[]) =>
      server.call('PUT', `/api/projects/${project.id}/parse-policy`, {
        formats: { rtf: { chain, cross_validate: false } },
        service: { url: null, timeout_ms: 120_000 },
        limits: {},
      });
    await policy(['extension:example/hang']);
    expect(await uploadRtf(project.id)).toMatchObject({
      status: 'failed',
      failure: { reason: 'timeout', parser: { id: 'extension:example/hang' }, details: { limit_ms: 300 } },
    });
    await policy(['extension:example/crash']);
    const crashed = await uploadRtf(project.id);
    expect(crashed.failure).toMatchObject({
      reason: 'service_error',
      parser: { id: 'extension:example/crash' },
    });
    expect(crashed.failure?.message).toContain('exited with code 3: cannot read this dialect');

    await policy(['extension:example/crash', 'extension:example/rtf']);
    const fallback = await uploadRtf(project.id);
    expect(fallback.provenance?.parser.id).toBe('extension:example/rtf');
    expect(fallback.provenance?.warnings).toContain(
      'extension:example/crash failed (service_error); extension:example/rtf read the file instead.',
    );
  });

  it("uninstalling the extension removes its parsers; the project's chain then gives the structured failure", async () => {
    const project = await server.call<{ id: string }>('POST', '/api/projects', { name: 'After' });
    await server.call('PUT', `/api/projects/${project.id}/parse-policy`, {
      formats: { rtf: { chain: ['extension:example/rtf', 'builtin'], cross_validate: false } },
      service: { url: null, timeout_ms: 120_000 },
      limits: {},
    });
    await server.call('DELETE', '/api/extensions/example');
    expect((await parsers()).filter((parser) => parser.source === 'extension:example')).toEqual([]);
    expect(await uploadRtf(project.id)).toMatchObject({
      status: 'failed',
      failure: { reason: 'unsupported', parser: null },
    });
  });
});
