import type { ReactElement } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { ConfirmDialog } from '../ui/index.ts';

/** One button of a settings card, before its remove button. */
export interface CardAction {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  /** When the label alone does not say which card it acts on. */
  ariaLabel?: string;
}

/**
 * The action row of a settings card (a provider, an MCP server, an extension): its own buttons,
 * then the danger button that asks to remove it.
 *
 * @example
 * <CardActions actions={[{ label: t('mcp.connect'), onClick: connect }]} removeLabel={t('mcp.remove')} onRemove={ask} />
 */
export function CardActions({
  actions,
  removeLabel,
  onRemove,
}: {
  actions: readonly CardAction[];
  removeLabel: string;
  onRemove: () => void;
}): ReactElement {
  return (
    <div className="dialog-actions">
      {actions.map((action) => (
        <button
          key={action.label}
          type="button"
          className="button"
          aria-label={action.ariaLabel}
          onClick={action.onClick}
          disabled={action.disabled}
        >
          {action.label}
        </button>
      ))}
      <button type="button" className="button danger" onClick={onRemove}>
        {removeLabel}
      </button>
    </div>
  );
}

/**
 * Asks before a card's item goes: open while `item` is set; confirming removes it, and either
 * answer closes the dialog.
 *
 * @example
 * <ConfirmRemove item={removing} label={t('mcp.remove')} message={…} onRemove={(server) => remove.mutate(server.id)} onClose={() => setRemoving(undefined)} />
 */
export function ConfirmRemove<Item>({
  item,
  label,
  message,
  onRemove,
  onClose,
}: {
  item: Item | undefined;
  /** The dialog's title and its confirm button. */
  label: string;
  message: string;
  onRemove: (item: Item) => void;
  onClose: () => void;
}): ReactElement {
  const t = useTranslation();
  return (
    <ConfirmDialog
      open={item !== undefined}
      title={label}
      message={message}
      confirmLabel={label}
      cancelLabel={t('nav.cancel')}
      danger
      onCancel={onClose}
      onConfirm={() => {
        if (item !== undefined) onRemove(item);
        onClose();
      }}
    />
  );
}
