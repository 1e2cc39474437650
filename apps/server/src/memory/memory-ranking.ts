import type { MemoryItem } from '@youyou/contracts';

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/;

/**
 * The terms of a text for matching: Latin words of two letters or more, and each pair of
 * neighbouring CJK characters (Chinese has no spaces; bigrams match "季度营收" inside "第三季度营收").
 *
 * @example
 * termsOf('Prefers 中文回答'); // Set { 'prefers', '中文', '文回', '回答' }
 */
export function termsOf(text: string): Set<string> {
  const terms = new Set<string>();
  const lower = text.toLowerCase();
  for (const word of lower.match(/[\p{L}\p{N}_]+/gu) ?? []) {
    if (!CJK.test(word)) {
      if (word.length >= 2) terms.add(word);
      continue;
    }
    const characters = [...word];
    let run = '';
    const flush = (): void => {
      const chars = [...run];
      if (chars.length === 1) terms.add(run);
      for (let index = 0; index + 1 < chars.length; index++) terms.add(`${chars[index]}${chars[index + 1]}`);
      run = '';
    };
    for (const character of characters) {
      if (CJK.test(character)) run += character;
      else {
        if (run !== '') flush();
      }
    }
    if (run !== '') flush();
    for (const latin of word.split(CJK).filter((part) => part.length >= 2)) terms.add(latin);
  }
  return terms;
}

const DAY_MS = 86_400_000;
const HALF_LIFE_DAYS = 30;

/**
 * Memories for a request, best first (spec §4.13 read path): relevance to the message (share of its
 * terms the memory holds) weighs 0.7, recency (half-life 30 days on the last update or use) 0.3;
 * with no shared term, recency alone orders them. Expired memories are left out.
 *
 * @example
 * rankForInjection(memories, 'write the report in British English', Date.now());
 */
export function rankForInjection(memories: readonly MemoryItem[], query: string, now: number): MemoryItem[] {
  const wanted = termsOf(query);
  const scored = memories
    .filter((memory) => memory.expires_at === null || Date.parse(memory.expires_at) > now)
    .map((memory) => {
      const have = termsOf(`${memory.content} ${memory.tags.join(' ')}`);
      let shared = 0;
      for (const term of wanted) if (have.has(term)) shared++;
      const relevance = wanted.size === 0 ? 0 : shared / wanted.size;
      const touched = Math.max(
        Date.parse(memory.updated_at),
        memory.last_accessed_at === null ? 0 : Date.parse(memory.last_accessed_at),
      );
      const recency = Math.pow(0.5, Math.max(0, now - touched) / DAY_MS / HALF_LIFE_DAYS);
      return { memory, score: 0.7 * relevance + 0.3 * recency * memory.confidence };
    });
  scored.sort((a, b) => b.score - a.score || (a.memory.id < b.memory.id ? -1 : 1));
  return scored.map((entry) => entry.memory);
}
