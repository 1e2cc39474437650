import type { ReactElement } from 'react';
import { useResolvedLanguage, type Translate } from '../i18n/index.ts';
import { SparkIcon } from '../icons/index.ts';
import type { PaletteEntry } from './slash-commands.ts';

/** The `/` palette: a listbox the textarea drives (aria-activedescendant), so focus stays in the text. */
export function SlashPalette({
  id,
  entries,
  activeIndex,
  t,
  onPick,
}: {
  id: string;
  entries: readonly PaletteEntry[];
  activeIndex: number;
  t: Translate;
  onPick: (entry: PaletteEntry) => void;
}): ReactElement {
  const language = useResolvedLanguage();
  return (
    <div className="slash-palette" role="listbox" id={id} aria-label={t('composer.palette')}>
      {entries.length === 0 && <div className="palette-empty">{t('composer.noCommands')}</div>}
      {entries.map((entry, index) => (
        <div
          key={`${entry.source}:${entry.name}`}
          id={`${id}-${String(index)}`}
          role="option"
          aria-selected={index === activeIndex}
          className={`palette-entry${index === activeIndex ? ' active' : ''}`}
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(entry);
          }}
        >
          <span className="palette-name">
            {entry.source === 'skill' && <SparkIcon size={14} />}/{entry.name}
          </span>
          <span className="palette-description">{entry.description[language]}</span>
          <span className="palette-kind">{t(`composer.source.${entry.source}`)}</span>
        </div>
      ))}
    </div>
  );
}
