import type { ReactElement } from 'react';
import type { MessagePart } from '@youyou/contracts';
import { useTranslation } from '../i18n/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { UiDocumentView } from './ui-document-view.tsx';

type CardMessagePart = Extract<MessagePart, { type: 'card' }>;

/** A `card` part (spec §4.2, §4.6): a UI document a tool or an extension put into the answer. */
export function CardPart({ part }: { part: CardMessagePart }): ReactElement {
  const t = useTranslation();
  const conversationId = useNavigation((state) => state.conversationId);
  return (
    <section className="card-part" data-testid="card-part" aria-label={part.title ?? t('ui.card')}>
      <header className="card-part-header">
        {part.title !== undefined && <span className="card-part-title">{part.title}</span>}
        <span className="card-part-source">{t('ui.from', { source: part.source })}</span>
      </header>
      <UiDocumentView
        schema={part.schema}
        target={{
          kind: 'card',
          id: part.card_id,
          source: part.source,
          ...(conversationId === undefined ? {} : { conversationId }),
        }}
      />
    </section>
  );
}
