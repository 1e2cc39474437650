import type { ArtifactDiff } from '@youyou/contracts';
import { formatPatch, structuredPatch } from 'diff';

/**
 * A line diff of two texts (jsdiff's Myers diff), as hunks and as a unified patch.
 *
 * @example
 * const diff = diffTexts({ artifactId, title: 'plan.md', from: 1, to: 2, before, after });
 * diff.added; // lines added
 */
export function diffTexts(options: {
  artifactId: string;
  title: string;
  from: number;
  to: number;
  before: string;
  after: string;
}): ArtifactDiff {
  const patch = structuredPatch(
    options.title,
    options.title,
    options.before,
    options.after,
    `v${options.from}`,
    `v${options.to}`,
    { context: 3 },
  );
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  return {
    artifact_id: options.artifactId,
    from: options.from,
    to: options.to,
    added,
    removed,
    hunks: patch.hunks.map((hunk) => ({
      old_start: hunk.oldStart,
      old_lines: hunk.oldLines,
      new_start: hunk.newStart,
      new_lines: hunk.newLines,
      lines: hunk.lines,
    })),
    unified: formatPatch(patch),
  };
}

/** Lines added and removed between two texts, without building hunks for a client. */
export function countChanges(before: string, after: string): { added: number; removed: number } {
  const { added, removed } = diffTexts({ artifactId: '', title: '', from: 0, to: 0, before, after });
  return { added, removed };
}
