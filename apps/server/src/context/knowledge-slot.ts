import type { RetrievalHit, Retriever } from '@youyou/contracts';
import type { KnowledgeSlotSource } from './context-service.ts';
import type { SlotItem } from './context-assembler.ts';

/** Where a hit sits: "p. 3", "slide 2", "sheet Q3", and its heading path. */
function placeOf(hit: RetrievalHit): string {
  const { location, heading_path: headings } = hit.citation;
  const parts: string[] = [];
  if (location.page !== undefined) parts.push(`p. ${location.page}`);
  if (location.slide !== undefined) parts.push(`slide ${location.slide}`);
  if (location.sheet !== undefined) parts.push(`sheet ${location.sheet}`);
  if (headings.length > 0) parts.push(headings.join(' › '));
  return parts.join(', ');
}

/** A hit as the knowledge slot shows it: title, place, link to cite, and the chunk's text. */
export function passageOf(hit: RetrievalHit): SlotItem {
  const place = placeOf(hit);
  return {
    id: hit.chunk_id,
    text: `${hit.citation.title}${place === '' ? '' : ` (${place})`} — cite as [${hit.citation.title}](${hit.citation.link})\n${hit.text}`,
  };
}

/**
 * The knowledge slot over the retrieval helper's Retriever (spec §4.12): the turn's message is the
 * query, the conversation's project the filter, the best `topK` passages the items (the assembler
 * holds them to the knowledge share, weakest dropped first).
 *
 * @example
 * contextAssembly.setKnowledge(knowledgeSlotOf(knowledge.retriever));
 */
export function knowledgeSlotOf(retriever: Retriever, options: { topK?: number } = {}): KnowledgeSlotSource {
  return {
    async passages(query, scope, signal) {
      const trimmed = query.trim().slice(0, 1_000);
      if (trimmed === '') return [];
      const result = await retriever.search(
        { query: trimmed, project_id: scope.projectId, top_k: options.topK ?? 6 },
        { signal },
      );
      return result.hits.map(passageOf);
    },
  };
}
