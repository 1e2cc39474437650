import type { ArtifactDiff } from '@youyou/contracts';
import type { ReactElement } from 'react';

/** A line diff: each hunk with its range, removed lines red, added green. */
export function DiffView({ diff }: { diff: ArtifactDiff }): ReactElement {
  return (
    <div className="diff-view" data-testid="diff-view">
      <p className="diff-summary">
        <span className="diff-added">+{diff.added}</span>{' '}
        <span className="diff-removed">−{diff.removed}</span> v{diff.from} → v{diff.to}
      </p>
      {diff.hunks.map((hunk, index) => (
        <div className="diff-hunk" key={index}>
          <div className="diff-hunk-header">{`@@ -${String(hunk.old_start)},${String(hunk.old_lines)} +${String(hunk.new_start)},${String(hunk.new_lines)} @@`}</div>
          {hunk.lines.map((line, lineIndex) => {
            const kind = line.startsWith('+') ? 'added' : line.startsWith('-') ? 'removed' : 'context';
            return (
              <div key={lineIndex} className={`diff-line ${kind}`} data-kind={kind}>
                {line}
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}
