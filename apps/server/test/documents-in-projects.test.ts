import type {
  DocumentBlocksPage,
  DocumentList,
  DocumentView,
  KnowledgeList,
  ReferenceCandidateList,
  RetrievalResult,
} from '@youyou/contracts';
import { documentFixtures, type Fixture } from '@youyou/testing/documents';
import { fakeTextReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let fixtures: Map<string, Fixture>;

beforeAll(async () => {
  fixtures = await documentFixtures({ logRows: 5, bombBytes: 1024 });
}, 60_000);

describe.each(DATABASE_KINDS)(
  'uploads as project knowledge, Office content and honest failures on %s',
  (kind) => {
    let database: TestDatabase;
    let server: TestServer;
    let project: { id: string };

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      server = await startTestServer({ database });
      project = await server.call<{ id: string }>('POST', '/api/projects', { name: 'Harbour' });
    });

    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    async function upload(name: string, fields: Record<string, string> = {}): Promise<{ id: string }> {
      const fixture = fixtures.get(name);
      if (fixture === undefined) throw new Error(`no fixture ${name}`);
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(fixture.bytes)], { type: fixture.media_type }), fixture.name);
      for (const [key, value] of Object.entries(fields)) form.set(key, value);
      return server.call<{ id: string }>('POST', '/api/uploads', form);
    }

    async function documentOf(
      uploadId: string,
      done: (view: DocumentView) => boolean,
    ): Promise<DocumentView> {
      for (let attempt = 0; attempt < 400; attempt++) {
        const response = await server.request<DocumentView>('GET', `/api/uploads/${uploadId}/document`);
        if (response.status === 200 && done(response.body)) return response.body;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`the document of upload ${uploadId} never got there`);
    }

    const settled = (view: DocumentView): boolean => view.status !== 'queued' && view.status !== 'parsing';
    const indexed = (view: DocumentView): boolean => view.status === 'indexed';

    async function blocksOf(documentId: string): Promise<DocumentBlocksPage['blocks']> {
      return (await server.call<DocumentBlocksPage>('GET', `/api/documents/${documentId}/blocks`)).blocks;
    }

    async function references(query: string): Promise<ReferenceCandidateList['candidates']> {
      const list = await server.call<ReferenceCandidateList>(
        'GET',
        `/api/references?project_id=${project.id}&query=${encodeURIComponent(query)}`,
      );
      return list.candidates;
    }

    it("an upload in a project conversation joins the project's knowledge: @ offers it, its text is found with a citation of its own slide, the Documents tab lists it", async () => {
      const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {
        project_id: project.id,
      });
      const uploaded = await upload('harbour.pptx', { conversation_id: conversation.id });
      const document = await documentOf(uploaded.id, indexed);
      expect(document).toMatchObject({ project_id: project.id, knowledge_scope: 'project' });

      const byName = await references('harbour');
      expect(byName).toContainEqual(expect.objectContaining({ kind: 'document', label: 'harbour.pptx' }));

      const crane = (await references('harbour crane lifts')).find((entry) => entry.citation !== undefined);
      expect(crane).toMatchObject({ kind: 'document', label: 'harbour.pptx' });
      expect(crane?.citation).toMatchObject({ document_id: document.id, location: { slide: 2 } });
      const lighthouse = await server.call<RetrievalResult>('POST', '/api/knowledge/search', {
        query: 'Lighthouse maintenance',
        project_id: project.id,
      });
      expect(lighthouse.hits[0]?.citation).toMatchObject({ title: 'harbour.pptx', location: { slide: 4 } });
      const ferry = await server.call<RetrievalResult>('POST', '/api/knowledge/search', {
        query: 'ferry timetable',
        project_id: project.id,
      });
      expect(ferry.hits[0]?.citation.location).toEqual({ slide: 2 });

      const listed = await server.call<DocumentList>('GET', `/api/projects/${project.id}/documents`);
      expect(listed.documents.map((entry) => entry.name)).toContain('harbour.pptx');
    });

    it('an upload made before its conversation existed joins the project once it is sent there', async () => {
      const uploaded = await upload('report-en.docx');
      const loose = await documentOf(uploaded.id, settled);
      expect(loose.project_id).toBeNull();
      const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {
        project_id: project.id,
      });
      server.fake.push(fakeTextReply('read it'));
      const sent = await server.call<{ run: { id: string } }>(
        'POST',
        `/api/conversations/${conversation.id}/messages`,
        { text: 'summarise', attachments: [uploaded.id] },
      );
      await server.settled(conversation.id, sent.run.id);
      const document = await documentOf(uploaded.id, (view) => indexed(view) && view.project_id !== null);
      expect(document).toMatchObject({ project_id: project.id, conversation_id: conversation.id });
      const knowledge = await server.call<KnowledgeList>('GET', `/api/projects/${project.id}/knowledge`);
      expect(knowledge.items).toContainEqual(
        expect.objectContaining({ source_id: uploaded.id, project_id: project.id, status: 'indexed' }),
      );
      const found = (await references('twelve percent')).find((entry) => entry.citation !== undefined);
      expect(found).toMatchObject({ label: 'report-en.docx' });
    });

    it("an upload kept to its conversation stays out of the project's knowledge until the user puts it in", async () => {
      const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {
        project_id: project.id,
      });
      const uploaded = await upload('ledger.xlsx', {
        conversation_id: conversation.id,
        knowledge_scope: 'conversation',
      });
      const document = await documentOf(uploaded.id, settled);
      expect(document).toMatchObject({ status: 'parsed', knowledge_scope: 'conversation' });
      const knowledge = await server.call<KnowledgeList>('GET', `/api/projects/${project.id}/knowledge`);
      expect(knowledge.items.some((item) => item.source_id === uploaded.id)).toBe(false);
      expect((await references('ledger')).some((entry) => entry.label === 'ledger.xlsx')).toBe(false);

      const moved = await server.call<DocumentView>('PATCH', `/api/documents/${document.id}`, {
        knowledge_scope: 'project',
      });
      expect(moved.knowledge_scope).toBe('project');
      await documentOf(uploaded.id, indexed);
      expect(await references('ledger')).toContainEqual(expect.objectContaining({ label: 'ledger.xlsx' }));

      await server.call('PATCH', `/api/documents/${document.id}`, { knowledge_scope: 'conversation' });
      const after = await server.call<KnowledgeList>('GET', `/api/projects/${project.id}/knowledge`);
      expect(after.items.some((item) => item.source_id === uploaded.id)).toBe(false);

      const bad = await server.request<{ error: { code: string } }>(
        'PATCH',
        `/api/documents/${document.id}`,
        {
          body: { knowledge_scope: 'everywhere' },
        },
      );
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('INVALID_INPUT');
    });

    it('a deck whose titles are text boxes gets them as headings, keeps every text of its notes, and cites each slide', async () => {
      const uploaded = await upload('harbour.pptx', { project_id: project.id });
      const document = await documentOf(uploaded.id, settled);
      const blocks = (await blocksOf(document.id)).map((entry) => entry.block);
      expect(
        blocks.filter((block) => block.type === 'heading').map((block) => [block.text, block.location.slide]),
      ).toEqual([
        ['Harbour plan', 1],
        ['Cranes', 2],
        ['Ferries', 3],
        ['Lighthouse', 4],
      ]);
      const notes = blocks.filter((block) => block.type === 'paragraph' && block.role === 'speaker_notes');
      expect(notes.map((block) => block.location.slide)).toEqual([1, 2]);
      const second = notes[1];
      expect(second?.type === 'paragraph' ? second.text : '').toContain('Remember the ferry timetable.');
      expect(second?.type === 'paragraph' ? second.text : '').toContain(
        'Crane numbers are from the port office.',
      );
      expect(document.metadata?.title).toBe('Harbour plan');
    });

    it('a workbook shows its numbers as their formats do: dates, times, percentages, currency, thousands', async () => {
      const uploaded = await upload('ledger.xlsx', { project_id: project.id });
      const document = await documentOf(uploaded.id, settled);
      const table = (await blocksOf(document.id)).find((entry) => entry.block.type === 'table')?.block;
      expect(
        table?.type === 'table' ? Object.fromEntries(table.rows.map(([what, value]) => [what, value])) : {},
      ).toEqual({
        Date: '2024-01-15',
        'Built-in date': '1/15/2024',
        Time: '6:00 PM',
        'Date and time': '2024-01-15 12:00',
        Percent: '12.50%',
        Currency: '$1,234.50',
        Euro: '1.234,50 €',
        Thousands: '1,234,567',
        Plain: '42.5',
      });
    });

    it('a picture named .docx fails wrong_type naming what it is; a PDF of no bytes fails empty', async () => {
      const picture = await documentOf((await upload('chart.docx', { project_id: project.id })).id, settled);
      expect(picture).toMatchObject({
        status: 'failed',
        format: 'docx',
        failure: { reason: 'wrong_type', details: { detected: 'image/png' } },
      });
      expect(picture.failure?.message).toContain('PNG image');
      const nothing = await documentOf((await upload('nothing.pdf', { project_id: project.id })).id, settled);
      expect(nothing).toMatchObject({ status: 'failed', failure: { reason: 'empty' } });
    });
  },
);
