import type { ChunkDraft } from '@youyou/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDIDATE_CAP, KnowledgeRepository, KnowledgeRetriever } from '../src/knowledge/index.ts';
import { DATABASE_KINDS } from './support/databases.ts';
import { storageFixtures, type StorageFixture } from './support/storage-fixture.ts';

/** More passing mentions than any candidate cap, so ranking only the first matches would miss. */
const PASSING = CANDIDATE_CAP + 200;
const PER_DOCUMENT = 100;

function draft(ordinal: number, heading: string, text: string): ChunkDraft {
  return {
    version: 1,
    ordinal,
    text,
    heading_path: [heading],
    location: {},
    block_start: ordinal,
    block_end: ordinal,
  };
}

for (const kind of DATABASE_KINDS) {
  describe(`ranking a term in most chunks on ${kind}`, () => {
    const fixtures = storageFixtures(kind);
    let fixture: StorageFixture;
    let retriever: KnowledgeRetriever;

    beforeAll(async () => {
      fixture = await fixtures.create();
      const now = Date.now();
      await fixture.database.db
        .insertInto('projects')
        .values({ id: 'p1', owner: null, name: 'p1', directory: null, created_at: now, updated_at: now })
        .execute();
      const repository = new KnowledgeRepository(fixture.database.db);
      retriever = new KnowledgeRetriever({
        db: fixture.database.db,
        dialect: fixture.database.dialect,
        repository,
      });
      const add = async (name: string, drafts: ChunkDraft[]): Promise<void> => {
        const item = await repository.upsert({
          source: 'upload',
          source_id: `${name}-upload`,
          project_id: 'p1',
          document_id: `${name}-doc`,
          title: name,
          media_type: 'text/markdown',
          source_version: 1,
        });
        await repository.replaceChunks(item, drafts);
      };
      // Hundreds of chunks that mention the term once, in passing, indexed first.
      for (let document = 0; document * PER_DOCUMENT < PASSING; document += 1)
        await add(
          `minutes-${document}`,
          Array.from({ length: PER_DOCUMENT }, (_, ordinal) =>
            draft(
              ordinal,
              `Meeting ${document}.${ordinal}`,
              `Item ${ordinal} of meeting ${document}: the team looked at the ledger and moved on to the next point of the agenda. 会议${ordinal}顺带提到财务报表，随后讨论下一个议题。`,
            ),
          ),
        );
      // Indexed last: the chunks about the term.
      await add('ledger-guide', [
        draft(
          0,
          'Closing the ledger',
          'The ledger is closed each month. Every ledger line is checked against the bank statement before the ledger is locked.',
        ),
      ]);
      await add('报表指南', [
        draft(0, '财务报表编制', '财务报表每月编制一次；财务报表的每一行都要与银行对账单核对。'),
      ]);
    });
    afterAll(async () => {
      await fixture.cleanup();
      await fixtures.dispose();
    });

    it('a Latin term in most chunks still ranks the chunk about it first', async () => {
      const result = await retriever.search({ query: 'ledger', project_id: 'p1', top_k: 5 });
      expect(result.hits).toHaveLength(5);
      expect(result.hits[0]?.citation.title).toBe('ledger-guide');
      expect(result.hits[0]?.citation.heading_path).toEqual(['Closing the ledger']);
      expect(result.hits.every((hit) => hit.text.toLowerCase().includes('ledger'))).toBe(true);
      expect(result.hits[0]?.score).toBeGreaterThan(result.hits[1]?.score ?? 0);
    });

    it('a Chinese term in most chunks still ranks the chunk about it first', async () => {
      const result = await retriever.search({ query: '财务报表', project_id: 'p1', top_k: 5 });
      expect(result.hits).toHaveLength(5);
      expect(result.hits[0]?.citation.title).toBe('报表指南');
      expect(result.hits.every((hit) => hit.text.includes('财务报表'))).toBe(true);
    });

    it('beside a rarer word, the chunk with both comes first', async () => {
      const result = await retriever.search({ query: 'ledger statement', project_id: 'p1', top_k: 3 });
      expect(result.hits.map((hit) => hit.citation.title)).toEqual(['ledger-guide']);
    });
  });
}
