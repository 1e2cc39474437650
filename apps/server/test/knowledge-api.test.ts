import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  parseDocumentLink,
  type ConversationMessage,
  type KnowledgeDocumentPage,
  type KnowledgeItem,
  type KnowledgeList,
  type ReferenceCandidateList,
  type RetrievalResult,
} from '@youyou/contracts';
import { fakeTextReply, fakeToolCallReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const PLAN = `# Launch plan

## Dates

The launch moves to March. Ticket OPS-4711 tracks the venue.

## 预算

市场预算为五十万元，由财务部审批。

| Item | Cost |
| --- | --- |
| Venue | 12000 |
| Catering | 8000 |
`;

function toolOutputs(messages: readonly ConversationMessage[], name: string): string[] {
  return (messages.at(-1)?.parts ?? [])
    .filter((part) => part.type === 'tool_result' && part.tool_name === name)
    .map((part) => (part.type === 'tool_result' ? part.output : ''));
}

describe.each(DATABASE_KINDS)('project knowledge over HTTP on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let project: { id: string; directory: string };
  let artifactId: string;

  let planConversation: string;

  async function turn(
    text: string,
    replies: Parameters<TestServer['fake']['push']>,
    extra: object = {},
    conversationId?: string,
  ) {
    server.fake.push(...replies);
    const conversation =
      conversationId === undefined
        ? await server.call<{ id: string }>('POST', '/api/conversations', { project_id: project.id })
        : { id: conversationId };
    const sent = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      {
        text,
        ...extra,
      },
    );
    return server.settled(conversation.id, sent.run.id);
  }

  async function indexed(predicate: (item: KnowledgeItem) => boolean): Promise<KnowledgeList> {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const list = await server.call<KnowledgeList>('GET', `/api/projects/${project.id}/knowledge`);
      if (list.items.some(predicate) && list.counts.queued === 0 && list.counts.parsing === 0) return list;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the knowledge item was not indexed');
  }

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
    const directory = join(server.directories.root, 'project');
    await mkdir(join(directory, 'docs'), { recursive: true });
    await writeFile(join(directory, 'docs', 'readme-notes.md'), 'The staging password rotates monthly.\n');
    project = {
      ...(await server.call<{ id: string }>('POST', '/api/projects', { name: 'K', directory })),
      directory,
    };
    const written = await turn('write the plan', [
      fakeToolCallReply('create_artifact', { title: 'Launch plan', kind: 'markdown', content: PLAN }),
      fakeTextReply('written'),
    ]);
    planConversation = written.conversation.id;
    const list = await indexed((item) => item.source === 'artifact' && item.status === 'indexed');
    artifactId = list.items[0]?.source_id ?? '';
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('an artifact a run writes is indexed in its project, with chunks and status', async () => {
    const list = await indexed((item) => item.status === 'indexed');
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      project_id: project.id,
      source: 'artifact',
      title: 'Launch plan',
      status: 'indexed',
      error: null,
      attempts: 1,
      source_version: 1,
    });
    expect(list.items[0]?.chunk_count).toBeGreaterThan(1);
    expect(list.counts).toMatchObject({ indexed: 1, failed: 0 });
  });

  it('search returns citations with heading path, snippet and a link the viewer opens at the block', async () => {
    const result = await server.call<RetrievalResult>('POST', '/api/knowledge/search', {
      query: '市场预算',
      project_id: project.id,
    });
    const citation = result.hits[0]?.citation;
    expect(citation).toMatchObject({
      title: 'Launch plan',
      source: 'artifact',
      heading_path: ['Launch plan', '预算'],
    });
    const link = parseDocumentLink(citation?.link ?? '');
    expect(link).not.toBeNull();
    const page = await server.call<KnowledgeDocumentPage>(
      'GET',
      `/api/knowledge/read/${link?.document_id ?? ''}?from=${link?.block ?? 0}&to=${(link?.block ?? 0) + 3}`,
    );
    expect(page.item.title).toBe('Launch plan');
    expect(page.blocks.map((entry) => entry.block.type)).toContain('paragraph');
    expect(JSON.stringify(page.blocks)).toContain('市场预算为五十万元');
    const byArtifact = await server.call<KnowledgeDocumentPage>('GET', `/api/knowledge/read/${artifactId}`);
    expect(byArtifact.total).toBe(page.total);
    expect(byArtifact.blocks.find((entry) => entry.block.type === 'table')?.block).toMatchObject({
      header: ['Item', 'Cost'],
      rows: [
        ['Venue', '12000'],
        ['Catering', '8000'],
      ],
    });
  });

  it('the model searches with search_knowledge and reads with read_document; results carry the links', async () => {
    const view = await turn('when is the launch?', [
      fakeToolCallReply('search_knowledge', { query: 'OPS-4711' }),
      fakeToolCallReply('read_document', { id: artifactId, from: 0, to: 4 }),
      fakeTextReply('In March [Launch plan](youyou-doc:x#block-2).'),
    ]);
    const [searched] = toolOutputs(view.messages, 'search_knowledge');
    expect(searched).toContain('Launch plan — Launch plan › Dates');
    expect(searched).toContain('**OPS-4711**');
    expect(searched).toMatch(/link: youyou-doc:[^#\s]+#block-\d+/);
    const [read] = toolOutputs(view.messages, 'read_document');
    expect(read).toContain('[block 0] # Launch plan');
    expect(read).toContain('The launch moves to March.');
    expect(read).toContain('more blocks after this range');
    const nothing = await turn('x', [
      fakeToolCallReply('search_knowledge', { query: 'zebra-unicorn' }),
      fakeTextReply('no'),
    ]);
    expect(toolOutputs(nothing.messages, 'search_knowledge')[0]).toContain('Nothing in the project');
    const missing = await turn('x', [
      fakeToolCallReply('read_document', { id: 'nope' }),
      fakeTextReply('no'),
    ]);
    expect(toolOutputs(missing.messages, 'read_document')[0]).toContain('Error [NOT_FOUND]');
  });

  it('an updated artifact is indexed again at its new version', async () => {
    await turn(
      'move it',
      [
        fakeToolCallReply('update_artifact', {
          artifact: artifactId,
          edits: [{ find: 'March', replace: 'September' }],
        }),
        fakeTextReply('moved'),
      ],
      {},
      planConversation,
    );
    await indexed((item) => item.source_version === 2 && item.status === 'indexed');
    const after = await server.call<RetrievalResult>('POST', '/api/knowledge/search', {
      query: 'September',
      project_id: project.id,
    });
    expect(after.hits).toHaveLength(1);
    const before = await server.call<RetrievalResult>('POST', '/api/knowledge/search', {
      query: 'moves to March',
      project_id: project.id,
    });
    expect(before.hits.filter((hit) => hit.text.includes('moves to March'))).toHaveLength(0);
  });

  it('a document that cannot be read fails visibly with the reason; retry tries again and counts the attempt', async () => {
    const knowledge = server.server.services.knowledge;
    if (knowledge === undefined) throw new Error('no knowledge service');
    const now = new Date().toISOString();
    const item = await knowledge.indexDocument({
      id: 'doc-unreadable',
      project_id: project.id,
      conversation_id: null,
      message_id: null,
      upload_id: 'upload-unreadable',
      artifact_id: null,
      name: 'scan.pdf',
      media_type: 'application/pdf',
      format: 'pdf',
      size: 10,
      status: 'parsed',
      progress: null,
      failure: null,
      metadata: null,
      provenance: null,
      block_count: 0,
      knowledge_scope: 'project',
      created_at: now,
      updated_at: now,
    });
    if (item === undefined) throw new Error('a project document was not indexed');
    const list = await indexed((entry) => entry.id === item.id && entry.status === 'failed');
    const failed = list.items.find((entry) => entry.id === item.id);
    expect(failed?.error).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('doc-unreadable'),
    });
    expect(list.counts.failed).toBe(1);
    const retried = await server.call<KnowledgeItem>('POST', `/api/knowledge/${item.id}/retry`);
    expect(retried.status).toBe('queued');
    await indexed((entry) => entry.id === item.id && entry.status === 'failed' && entry.attempts === 2);
    const rebuilt = await server.call<{ queued: number }>(
      'POST',
      `/api/projects/${project.id}/knowledge/rebuild`,
      {
        only_failed: true,
      },
    );
    expect(rebuilt.queued).toBe(1);
    const all = await server.call<{ queued: number }>(
      'POST',
      `/api/projects/${project.id}/knowledge/rebuild`,
      {},
    );
    expect(all.queued).toBe(2);
    await indexed((entry) => entry.source === 'artifact' && entry.status === 'indexed');
  });

  it('an uploaded document is parsed, indexed in the project and marked indexed; its citation opens its blocks', async () => {
    const form = new FormData();
    const text = '# 合同条款\n\n## 付款\n\n买方应在收到发票后三十日内付款，逾期按日万分之五计息。\n';
    form.set('file', new Blob([text], { type: 'text/markdown' }), '合同.md');
    form.set('project_id', project.id);
    const upload = await server.call<{ id: string }>('POST', '/api/uploads', form);
    const list = await indexed((item) => item.source_id === upload.id && item.status === 'indexed');
    const item = list.items.find((entry) => entry.source_id === upload.id);
    expect(item).toMatchObject({ source: 'upload', title: '合同.md', media_type: 'text/markdown' });
    expect(item?.document_id).not.toBeNull();
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const document = await server.call<{ status: string }>('GET', `/api/uploads/${upload.id}/document`);
      if (document.status === 'indexed') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect((await server.call<{ status: string }>('GET', `/api/uploads/${upload.id}/document`)).status).toBe(
      'indexed',
    );
    const result = await server.call<RetrievalResult>('POST', '/api/knowledge/search', {
      query: '逾期',
      project_id: project.id,
      sources: ['upload'],
    });
    expect(result.hits[0]?.citation).toMatchObject({
      title: '合同.md',
      document_id: item?.document_id,
      heading_path: ['合同条款', '付款'],
    });
    const link = parseDocumentLink(result.hits[0]?.citation.link ?? '');
    const page = await server.call<KnowledgeDocumentPage>(
      'GET',
      `/api/knowledge/read/${link?.document_id ?? ''}?from=${link?.block ?? 0}&to=${(result.hits[0]?.citation.block_end ?? 0) + 1}`,
    );
    expect(page.blocks[0]?.index).toBe(link?.block);
    expect(JSON.stringify(page.blocks)).toContain('逾期');
    // Deleting the upload takes it out of the knowledge and the search.
    await server.call('DELETE', `/api/uploads/${upload.id}`);
    const after = await server.call<KnowledgeList>('GET', `/api/projects/${project.id}/knowledge`);
    expect(after.items.some((entry) => entry.source_id === upload.id)).toBe(false);
    const gone = await server.call<RetrievalResult>('POST', '/api/knowledge/search', {
      query: '逾期',
      project_id: project.id,
    });
    expect(gone.hits).toHaveLength(0);
  });

  it('bad requests get structured errors', async () => {
    const empty = await server.request('POST', '/api/knowledge/search', { body: { query: '' } });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: { code: 'INVALID_INPUT' } });
    const unknownProject = await server.request('GET', '/api/projects/nope/knowledge');
    expect(unknownProject.status).toBe(404);
    const unknownItem = await server.request('POST', '/api/knowledge/nope/retry');
    expect(unknownItem.body).toMatchObject({ error: { code: 'NOT_FOUND' } });
    const pastEnd = await server.request('GET', `/api/knowledge/read/${artifactId}?from=9999`);
    expect(pastEnd.body).toMatchObject({ error: { code: 'INVALID_INPUT' } });
  });

  it('the @ picker offers knowledge, artifacts and project files, filtered by the query', async () => {
    const all = await server.call<ReferenceCandidateList>('GET', `/api/references?project_id=${project.id}`);
    expect(all.candidates.map((candidate) => candidate.kind)).toEqual(
      expect.arrayContaining(['knowledge', 'artifact', 'file']),
    );
    const files = await server.call<ReferenceCandidateList>(
      'GET',
      `/api/references?project_id=${project.id}&query=readme`,
    );
    expect(files.candidates).toEqual([
      { kind: 'file', id: 'docs/readme-notes.md', label: 'readme-notes.md', detail: 'docs/readme-notes.md' },
    ]);
  });

  it('@ references are attached to the turn: the model sees the file, the artifact and matching knowledge', async () => {
    const view = await turn('what does the venue cost?', [fakeTextReply('12000')], {
      references: [
        { kind: 'file', id: 'docs/readme-notes.md', label: 'readme-notes.md' },
        { kind: 'artifact', id: artifactId, label: 'Launch plan' },
        { kind: 'knowledge', id: project.id, label: 'knowledge' },
      ],
    });
    const user = view.messages.at(-2);
    expect(user?.parts.filter((part) => part.type === 'reference')).toHaveLength(3);
    const sent = JSON.stringify(server.fake.chatRequests.at(-1)?.body);
    expect(sent).toContain('The staging password rotates monthly.');
    expect(sent).toContain('<artifact id=');
    expect(sent).toContain('<knowledge query=');
    expect(sent).toContain('Venue');
    const missing = await server.request('POST', `/api/conversations/${view.conversation.id}/messages`, {
      body: { text: 'x', references: [{ kind: 'file', id: '../outside.txt', label: 'outside' }] },
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});
