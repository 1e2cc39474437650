import type { ReactElement } from 'react';
import type { MessageReference, ReferenceCandidate } from '@youyou/contracts';
import type { Translate } from '../i18n/index.ts';
import { CloseIcon } from '../icons/index.ts';
import './knowledge.css';

/**
 * The `@` query at the caret: what follows an `@` that starts a word, up to the caret; undefined
 * when the caret is not in one.
 *
 * @example
 * mentionQuery('see @pla', 8); // { query: 'pla', start: 4 }
 */
export function mentionQuery(text: string, caret: number): { query: string; start: number } | undefined {
  const match = /(^|\s)@([^\s@]{0,60})$/.exec(text.slice(0, caret));
  if (match === null) return undefined;
  return { query: match[2] ?? '', start: caret - (match[2]?.length ?? 0) - 1 };
}

/** The `@` picker: a listbox the textarea drives (aria-activedescendant), like the `/` palette. */
export function ReferencePicker({
  id,
  candidates,
  activeIndex,
  loading,
  t,
  onPick,
}: {
  id: string;
  candidates: readonly ReferenceCandidate[];
  activeIndex: number;
  loading: boolean;
  t: Translate;
  onPick: (candidate: ReferenceCandidate) => void;
}): ReactElement {
  return (
    <div
      className="slash-palette"
      role="listbox"
      id={id}
      aria-label={t('references.picker')}
      data-testid="reference-picker"
    >
      {candidates.length === 0 && (
        <div className="palette-empty">{loading ? t('knowledge.loading') : t('references.none')}</div>
      )}
      {candidates.map((candidate, index) => (
        <div
          key={`${candidate.kind}:${candidate.id}`}
          id={`${id}-${String(index)}`}
          role="option"
          aria-selected={index === activeIndex}
          className={`palette-entry${index === activeIndex ? ' active' : ''}`}
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(candidate);
          }}
        >
          <span className="badge">{t(`references.kind.${candidate.kind}`)}</span>{' '}
          <span className="palette-name">
            {candidate.kind === 'knowledge' ? t('references.projectKnowledge') : candidate.label}
          </span>
          <span className="palette-description">{candidate.detail}</span>
        </div>
      ))}
    </div>
  );
}

/** The references chosen for the next message, each removable. */
export function ReferenceTray({
  references,
  t,
  onRemove,
}: {
  references: readonly MessageReference[];
  t: Translate;
  onRemove: (reference: MessageReference) => void;
}): ReactElement | null {
  if (references.length === 0) return null;
  return (
    <div className="reference-tray" aria-label={t('references.attached')}>
      {references.map((reference) => (
        <span
          key={`${reference.kind}:${reference.id}`}
          className="reference-chip"
          data-testid="reference-chip"
        >
          @{reference.kind === 'knowledge' ? t('references.projectKnowledge') : reference.label}
          <button
            type="button"
            className="icon-button"
            aria-label={t('references.remove', { name: reference.label })}
            onClick={() => onRemove(reference)}
          >
            <CloseIcon size={12} />
          </button>
        </span>
      ))}
    </div>
  );
}
