import type {
  DocumentBlocksPage,
  DocumentList,
  DocumentParsePolicy,
  DocumentView,
  ParserList,
} from '@youyou/contracts';
import { fakeTextReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFixtures, type Fixture } from '@youyou/testing/documents';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startFakeParseService, type FakeParseService } from './support/fake-parse-service.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let fixtures: Map<string, Fixture>;

beforeAll(async () => {
  fixtures = await documentFixtures({ logRows: 20, bombBytes: 4 * 1024 * 1024 });
}, 60_000);

describe.each(DATABASE_KINDS)('documents on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let service: FakeParseService;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
    service = await startFakeParseService();
  });

  afterAll(async () => {
    await service?.close();
    await server?.close();
    await database?.drop();
  });

  async function upload(name: string, target: { conversation_id?: string; project_id?: string }) {
    const fixture = fixtures.get(name);
    if (fixture === undefined) throw new Error(`no fixture ${name}`);
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(fixture.bytes)], { type: fixture.media_type }), fixture.name);
    for (const [key, value] of Object.entries(target)) form.set(key, value);
    return server.call<{ id: string }>('POST', '/api/uploads', form);
  }

  async function settledDocument(uploadId: string): Promise<DocumentView> {
    for (let attempt = 0; attempt < 300; attempt++) {
      const response = await server.request<DocumentView>('GET', `/api/uploads/${uploadId}/document`);
      if (response.status === 200 && response.body.status !== 'queued' && response.body.status !== 'parsing')
        return response.body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the document of upload ${uploadId} never settled`);
  }

  it('parses an upload in the background: queued → parsing → parsed events, then the IR through the API', async () => {
    const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {});
    const uploaded = await upload('report-en.docx', { conversation_id: conversation.id });
    const document = await settledDocument(uploaded.id);
    expect(document).toMatchObject({
      // The knowledge module may have indexed it already.
      status: expect.stringMatching(/^(parsed|indexed)$/),
      format: 'docx',
      conversation_id: conversation.id,
      upload_id: uploaded.id,
      failure: null,
      metadata: { title: 'Quarterly Report', author: 'Ada Lovelace' },
      provenance: { parser: { id: 'builtin-docx', source: 'builtin' }, comparison: null },
    });
    const page = await server.call<DocumentBlocksPage>(
      'GET',
      `/api/documents/${document.id}/blocks?from=0&to=3`,
    );
    expect(page).toMatchObject({ document_id: document.id, from: 0, to: 3, total: document.block_count });
    expect(page.blocks.map((entry) => [entry.index, entry.block.type])).toEqual([
      [0, 'heading'],
      [1, 'heading'],
      [2, 'paragraph'],
    ]);
    const table = await server.call<DocumentBlocksPage>('GET', `/api/documents/${document.id}/blocks?from=3`);
    expect(table.blocks.find((entry) => entry.block.type === 'table')?.block).toMatchObject({
      header: ['Region', 'Sales'],
      rows: [
        ['North', '120'],
        ['South', '95'],
      ],
    });
    const events = await server.call<{ events: { type: string; payload: { document: DocumentView } }[] }>(
      'GET',
      `/api/conversations/${conversation.id}/event-log?after=0`,
    );
    const statuses = events.events
      .filter((event) => event.type === 'document.status')
      .map((event) => event.payload.document.status);
    expect(statuses[0]).toBe('queued');
    expect(statuses).toContain('parsing');
    expect(statuses).toContain('parsed');
    expect(['parsed', 'indexed']).toContain(statuses.at(-1));
    const listed = await server.call<DocumentList>('GET', `/api/conversations/${conversation.id}/documents`);
    expect(listed.documents.map((entry) => entry.id)).toEqual([document.id]);
  });

  it('records each failure with its reason class, refuses blocks of a failed document, and retries it', async () => {
    const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {});
    const reasons: Record<string, string> = {
      'scan.pdf': 'no_text_layer',
      'locked.pdf': 'encrypted',
      'broken.pdf': 'corrupt',
      'slides-named.docx': 'wrong_type',
      'blank.txt': 'empty',
    };
    const documents: Record<string, DocumentView> = {};
    for (const name of Object.keys(reasons))
      documents[name] = await settledDocument((await upload(name, { conversation_id: conversation.id })).id);
    expect(
      Object.fromEntries(Object.entries(documents).map(([name, view]) => [name, view.failure?.reason])),
    ).toEqual(reasons);
    const locked = documents['locked.pdf'] as DocumentView;
    expect(locked).toMatchObject({ status: 'failed', block_count: 0, metadata: null });
    const blocks = await server.request<{ error: { code: string; details: { reason: string } } }>(
      'GET',
      `/api/documents/${locked.id}/blocks`,
    );
    expect(blocks).toMatchObject({
      status: 409,
      body: { error: { code: 'CONFLICT', details: { reason: 'encrypted' } } },
    });
    const retried = await server.request<DocumentView>('POST', `/api/documents/${locked.id}/retry`);
    expect(retried).toMatchObject({ status: 202, body: { status: 'queued' } });
    expect((await settledDocument(locked.upload_id as string)).failure?.reason).toBe('encrypted');
    const failed = await server.call<DocumentList>(
      'GET',
      `/api/conversations/${conversation.id}/documents?status=failed`,
    );
    expect(failed.documents).toHaveLength(5);
  });

  it('gives images and unparsed formats no document', async () => {
    const form = new FormData();
    form.set('file', new Blob(['{"a":1}'], { type: 'application/json' }), 'data.json');
    const uploaded = await server.call<{ id: string }>('POST', '/api/uploads', form);
    const response = await server.request<{ error: { code: string } }>(
      'GET',
      `/api/uploads/${uploaded.id}/document`,
    );
    expect(response).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
  });

  it('tells the model the parsed text of an attachment, and a plain failure note for one it could not read', async () => {
    const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {});
    const good = await upload('report-zh.docx', { conversation_id: conversation.id });
    const bad = await upload('locked.pdf', { conversation_id: conversation.id });
    const goodDocument = await settledDocument(good.id);
    await settledDocument(bad.id);
    server.fake.push(fakeTextReply('收入增长了百分之十二。'));
    const sent = await server.call<{ run: { id: string }; user_message_id: string }>(
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      { text: 'Summarise both files', attachments: [good.id, bad.id] },
    );
    await server.settled(conversation.id, sent.run.id);
    const request = JSON.stringify(server.fake.chatRequests.at(-1)?.body);
    expect(request).toContain('第三季度收入增长了百分之十二。');
    expect(request).toContain(
      `<document id=\\"${goodDocument.id}\\" name=\\"report-zh.docx\\" format=\\"docx\\">`,
    );
    expect(request).toContain('could not be read: it is encrypted.');
    expect(request).toContain('Ask the user to remove the password');
    // The zip's own bytes never reach the model.
    expect(request).not.toContain('[Content_Types].xml');
    expect(request).not.toContain('%PDF');
    const linked = await server.call<DocumentView>('GET', `/api/documents/${goodDocument.id}`);
    expect(linked.message_id).toBe(sent.user_message_id);
  });

  it('stores a per-project parse policy, validates its chains, and lists parsers with their source tags', async () => {
    const project = await server.call<{ id: string }>('POST', '/api/projects', { name: 'Scans' });
    const initial = await server.call<DocumentParsePolicy>('GET', `/api/projects/${project.id}/parse-policy`);
    expect(initial).toEqual({ formats: {}, service: { url: null, timeout_ms: 120000 }, limits: {} });
    const withoutUrl = await server.request<{ error: { code: string } }>(
      'PUT',
      `/api/projects/${project.id}/parse-policy`,
      {
        body: { ...initial, formats: { pdf: { chain: ['builtin', 'http-service'], cross_validate: false } } },
      },
    );
    expect(withoutUrl).toMatchObject({ status: 400, body: { error: { code: 'INVALID_INPUT' } } });
    const unknown = await server.request<{ error: { code: string } }>(
      'PUT',
      `/api/projects/${project.id}/parse-policy`,
      {
        body: { ...initial, formats: { pdf: { chain: ['acme.nothing'], cross_validate: false } } },
      },
    );
    expect(unknown).toMatchObject({ status: 400, body: { error: { code: 'INVALID_INPUT' } } });
    const badUrl = await server.request<{ error: { code: string } }>(
      'PUT',
      `/api/projects/${project.id}/parse-policy`,
      {
        body: { ...initial, service: { url: 'ftp://example.com', timeout_ms: 5000 } },
      },
    );
    expect(badUrl.status).toBe(400);
    const before = await server.call<ParserList>('GET', `/api/parsers?project_id=${project.id}`);
    expect(before.parsers.find((parser) => parser.id === 'http-service')).toMatchObject({ available: false });
    expect(before.parsers.find((parser) => parser.id === 'builtin-pdf')).toMatchObject({
      source: 'builtin',
      formats: ['pdf'],
    });
    const policy: DocumentParsePolicy = {
      formats: { pdf: { chain: ['builtin', 'http-service'], cross_validate: false } },
      service: { url: service.url, timeout_ms: 5000 },
      limits: { max_table_rows: 5 },
    };
    expect(await server.call('PUT', `/api/projects/${project.id}/parse-policy`, policy)).toEqual(policy);
    expect(await server.call('GET', `/api/projects/${project.id}/parse-policy`)).toEqual(policy);
    const after = await server.call<ParserList>('GET', `/api/parsers?project_id=${project.id}`);
    expect(after.parsers.find((parser) => parser.id === 'http-service')).toMatchObject({ available: true });
  });

  it("follows the project's chain to the external service for a scan, and cross-validates when asked", async () => {
    const project = await server.call<{ id: string }>('POST', '/api/projects', { name: 'Archive' });
    const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {
      project_id: project.id,
    });
    service.answer = (request) => ({
      status: 200,
      body: {
        parser: { name: 'fake-mineru', version: '0.1' },
        markdown: `# Recognised\n\nThe text of ${request.name}.`,
      },
    });
    await server.call('PUT', `/api/projects/${project.id}/parse-policy`, {
      formats: { pdf: { chain: ['builtin', 'http-service'], cross_validate: false } },
      service: { url: service.url, timeout_ms: 5000 },
      limits: {},
    });
    const scan = await settledDocument((await upload('scan.pdf', { conversation_id: conversation.id })).id);
    expect(scan).toMatchObject({
      // The knowledge module may have indexed it already.
      status: expect.stringMatching(/^(parsed|indexed)$/),
      project_id: project.id,
      provenance: { parser: { id: 'http-service', version: '1+fake-mineru.0.1' } },
    });
    expect(scan.provenance?.warnings).toContain(
      'builtin-pdf failed (no_text_layer); http-service read the file instead.',
    );
    await server.call('PUT', `/api/projects/${project.id}/parse-policy`, {
      formats: { pdf: { chain: ['builtin', 'http-service'], cross_validate: true } },
      service: { url: service.url, timeout_ms: 5000 },
      limits: {},
    });
    const summary = await settledDocument((await upload('summary-en.pdf', { project_id: project.id })).id);
    expect(summary.provenance?.comparison).toMatchObject({
      primary: { parser: { id: 'builtin-pdf' }, ok: true, pages: 2 },
      secondary: { parser: { id: 'http-service' }, ok: true },
      chosen: 'primary',
      text_agreement: expect.any(Number),
    });
  });

  it('caps what an upload may expand to: a zip bomb fails too_large', async () => {
    const project = await server.call<{ id: string }>('POST', '/api/projects', { name: 'Bombs' });
    await server.call('PUT', `/api/projects/${project.id}/parse-policy`, {
      formats: {},
      service: { url: null, timeout_ms: 5000 },
      limits: { max_expanded_bytes: 1024 * 1024 },
    });
    const bomb = await settledDocument((await upload('bomb.docx', { project_id: project.id })).id);
    expect(bomb).toMatchObject({
      status: 'failed',
      failure: { reason: 'too_large', details: { limit: 1024 * 1024 } },
    });
    const oversized = await settledDocument((await upload('stock.xlsx', { project_id: project.id })).id);
    expect(['parsed', 'indexed']).toContain(oversized.status);
  });
});
