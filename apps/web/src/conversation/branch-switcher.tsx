import type { ReactElement } from 'react';
import type { SiblingInfo } from '@youyou/contracts';
import type { Translate } from '../i18n/index.ts';
import { ChevronIcon, ChevronLeftIcon } from '../icons/index.ts';

/** "‹ 2 / 3 ›": moves between the alternatives at one place of the message tree. */
export function BranchSwitcher({
  siblings,
  t,
  onSelect,
}: {
  siblings: SiblingInfo | undefined;
  t: Translate;
  onSelect: (messageId: string) => void;
}): ReactElement | null {
  if (siblings === undefined || siblings.ids.length < 2) return null;
  const { ids, index } = siblings;
  const previous = ids[index - 1];
  const next = ids[index + 1];
  return (
    <span
      className="branch-switcher"
      aria-label={t('conversation.branch', { index: index + 1, count: ids.length })}
    >
      <button
        type="button"
        className="icon-button"
        aria-label={t('conversation.previousBranch')}
        disabled={previous === undefined}
        onClick={() => previous !== undefined && onSelect(previous)}
      >
        <ChevronLeftIcon size={14} />
      </button>
      <span className="branch-count" aria-hidden="true">
        {index + 1} / {ids.length}
      </span>
      <button
        type="button"
        className="icon-button"
        aria-label={t('conversation.nextBranch')}
        disabled={next === undefined}
        onClick={() => next !== undefined && onSelect(next)}
      >
        <ChevronIcon size={14} />
      </button>
    </span>
  );
}
