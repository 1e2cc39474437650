import type { DocumentBlock } from '@youyou/contracts';
import { parseDocumentLink } from '@youyou/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KnowledgeRepository,
  KnowledgeRetriever,
  blockChunker,
  markedSnippet,
  type ItemSource,
} from '../src/knowledge/index.ts';
import { DATABASE_KINDS } from './support/databases.ts';
import { storageFixtures, type StorageFixture } from './support/storage-fixture.ts';

const paragraph = (text: string, page?: number): DocumentBlock => ({
  type: 'paragraph',
  text,
  location: page === undefined ? {} : { page },
});
const heading = (level: number, text: string): DocumentBlock => ({
  type: 'heading',
  level,
  text,
  location: {},
});

for (const kind of DATABASE_KINDS) {
  describe(`knowledge full-text search on ${kind}`, () => {
    const fixtures = storageFixtures(kind);
    let fixture: StorageFixture;
    let repository: KnowledgeRepository;
    let retriever: KnowledgeRetriever;
    const ids: Record<string, string> = {};

    async function add(name: string, source: Partial<ItemSource>, blocks: DocumentBlock[]): Promise<void> {
      const item = await repository.upsert({
        source: 'upload',
        source_id: `${name}-upload`,
        project_id: 'p1',
        document_id: `${name}-doc`,
        title: name,
        media_type: 'application/pdf',
        source_version: 1,
        ...source,
      });
      await repository.replaceChunks(
        item,
        blockChunker.chunk(blocks, { target_chars: 300, overlap_chars: 40 }),
      );
      ids[name] = item.id;
    }

    beforeAll(async () => {
      fixture = await fixtures.create();
      const now = Date.now();
      for (const id of ['p1', 'p2'])
        await fixture.database.db
          .insertInto('projects')
          .values({ id, owner: null, name: id, directory: null, created_at: now, updated_at: now })
          .execute();
      repository = new KnowledgeRepository(fixture.database.db);
      retriever = new KnowledgeRetriever({
        db: fixture.database.db,
        dialect: fixture.database.dialect,
        repository,
      });
      await add('report.pdf', {}, [
        heading(1, '年度报告'),
        heading(2, '营收'),
        paragraph('2024年第三季度营收同比增长百分之十二，主要来自海外市场。', 3),
        heading(2, 'Refund policy'),
        paragraph(
          'Customers may ask for a refund within thirty days. Invoice INV-2024-0042 was refunded in full.',
          4,
        ),
      ]);
      await add('handbook.md', { media_type: 'text/markdown' }, [
        heading(1, 'Employee handbook'),
        paragraph(
          'Holidays are booked through the HR portal. The refund of travel costs follows the expense rules.',
        ),
        paragraph('出差报销需要在三十天内提交。'),
      ]);
      await add('plan', { source: 'artifact', source_id: 'artifact-1', document_id: null }, [
        heading(1, 'Launch plan'),
        paragraph('The launch moves to March; the AI review happens first.'),
      ]);
      await add('other-project', { project_id: 'p2' }, [paragraph('A refund policy of another project.')]);
    });
    afterAll(async () => {
      await fixture.cleanup();
      await fixtures.dispose();
    });

    it('finds Chinese text by a phrase inside a longer run of characters', async () => {
      const result = await retriever.search({ query: '季度营收', project_id: 'p1' });
      expect(result.mode).toBe('fulltext');
      expect(result.hits[0]?.citation).toMatchObject({
        title: 'report.pdf',
        knowledge_id: ids['report.pdf'],
        document_id: 'report.pdf-doc',
        source_id: 'report.pdf-upload',
        heading_path: ['年度报告', '营收'],
        location: { page: 3 },
      });
      const citation = result.hits[0]?.citation;
      expect(markedSnippet(citation ?? { snippet: '', highlights: [] })).toContain('**季度营收**');
      expect(parseDocumentLink(citation?.link ?? '')).toEqual({
        document_id: ids['report.pdf'],
        block: citation?.block_start,
      });
    });

    it('finds a two-character Chinese term the trigram index cannot hold', async () => {
      const result = await retriever.search({ query: '报销', project_id: 'p1' });
      expect(result.hits.map((hit) => hit.citation.title)).toEqual(['handbook.md']);
      expect(markedSnippet(result.hits[0]?.citation ?? { snippet: '', highlights: [] })).toContain(
        '**报销**',
      );
    });

    it('finds an id-like term with its punctuation, ignoring case', async () => {
      const result = await retriever.search({ query: 'inv-2024-0042', project_id: 'p1' });
      expect(result.hits).toHaveLength(1);
      expect(result.hits[0]?.citation).toMatchObject({ title: 'report.pdf', location: { page: 4 } });
      expect(result.hits[0]?.citation.highlights).toHaveLength(1);
    });

    it('ranks the chunk with the words under its heading above a passing mention, within the project', async () => {
      // Both words are required while some chunk has both.
      const result = await retriever.search({ query: 'refund policy', project_id: 'p1' });
      expect(result.hits.map((hit) => hit.citation.title)).toEqual(['report.pdf']);
      const loose = await retriever.search({ query: 'refund', project_id: 'p1' });
      expect(loose.hits.map((hit) => hit.citation.title).sort()).toEqual(['handbook.md', 'report.pdf']);
      expect(loose.hits[0]?.rank).toBe(1);
      expect(loose.hits.every((hit) => hit.score > 0)).toBe(true);
    });

    it('a short Latin term mixed with a long one narrows the trigram match', async () => {
      const result = await retriever.search({ query: 'AI launch', project_id: 'p1' });
      expect(result.hits[0]?.citation.title).toBe('plan');
    });

    it('filters by project, document and source', async () => {
      expect(
        (await retriever.search({ query: 'refund', project_id: 'p2' })).hits.map((hit) => hit.citation.title),
      ).toEqual(['other-project']);
      expect(
        (await retriever.search({ query: 'refund', document_ids: ['handbook.md-doc'] })).hits.map(
          (hit) => hit.citation.title,
        ),
      ).toEqual(['handbook.md']);
      expect(
        (await retriever.search({ query: 'launch', project_id: 'p1', sources: ['upload'] })).hits,
      ).toHaveLength(0);
      expect(
        (await retriever.search({ query: 'launch', project_id: 'p1', sources: ['artifact'] })).hits[0]
          ?.citation,
      ).toMatchObject({ source: 'artifact', source_id: 'artifact-1', document_id: ids['plan'] });
      expect((await retriever.search({ query: 'refund' })).hits).toHaveLength(3);
    });

    it('query syntax is text: quotes, operators and wildcards match literally or not at all', async () => {
      for (const query of ['refund OR holidays', 'NEAR(refund)', '"unclosed', 'col:refund', '%', '_']) {
        const result = await retriever.search({ query, project_id: 'p1' });
        expect(Array.isArray(result.hits)).toBe(true);
      }
      expect((await retriever.search({ query: '%', project_id: 'p1' })).hits).toHaveLength(0);
      expect(
        (await retriever.search({ query: '"refund within thirty"', project_id: 'p1' })).hits,
      ).toHaveLength(1);
    });

    it('an empty query is refused with INVALID_INPUT', async () => {
      await expect(retriever.search({ query: '  ' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    });

    it('re-indexing an item replaces its chunks', async () => {
      const item = await repository.get(ids['plan'] ?? '');
      if (item === undefined) throw new Error('plan missing');
      await repository.replaceChunks(item, blockChunker.chunk([paragraph('The launch moves to April.')]));
      expect((await retriever.search({ query: 'March', project_id: 'p1' })).hits).toHaveLength(0);
      expect((await retriever.search({ query: 'April', project_id: 'p1' })).hits).toHaveLength(1);
    });
  });
}
