/** The k of reciprocal rank fusion: 60, as Cormack et al. (2009) and most engines use. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: each list gives an item 1 / (k + rank); the sums order the union. Lists
 * are best first; ties keep the order of first appearance.
 *
 * @example
 * reciprocalRankFusion([[3, 1, 2], [1, 4]]); // [{ id: 1, score: … }, { id: 3, … }, …]
 */
export function reciprocalRankFusion<T>(
  lists: readonly (readonly T[])[],
  k = RRF_K,
): { id: T; score: number }[] {
  const scores = new Map<T, number>();
  for (const list of lists) {
    list.forEach((id, index) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + index + 1)));
  }
  return [...scores.entries()]
    .map(([id, score]) => ({ id, score }))
    .sort((left, right) => right.score - left.score);
}
