import { useEffect, useRef, type ReactElement, type ReactNode } from 'react';
import './dialog.css';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** `alertdialog` for confirmations. */
  role?: 'dialog' | 'alertdialog';
  className?: string;
}

/**
 * A modal on the native `<dialog>`: focus moves in and is trapped, Escape closes, focus returns to
 * what had it before.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
  role = 'dialog',
  className,
}: DialogProps): ReactElement {
  const reference = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = reference.current;
    if (dialog === null) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
  }, [open]);
  return (
    <dialog
      ref={reference}
      className={`dialog${className === undefined ? '' : ` ${className}`}`}
      role={role}
      aria-label={title}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === reference.current) onClose();
      }}
    >
      {open && <div className="dialog-body">{children}</div>}
    </dialog>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A yes/no question; the cancel button has focus first so Enter never destroys by accident. */
export function ConfirmDialog(props: ConfirmDialogProps): ReactElement {
  return (
    <Dialog
      open={props.open}
      title={props.title}
      onClose={props.onCancel}
      role="alertdialog"
      className="confirm-dialog"
    >
      <h2 className="dialog-title">{props.title}</h2>
      <p className="dialog-message">{props.message}</p>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={props.onCancel} autoFocus>
          {props.cancelLabel}
        </button>
        <button
          type="button"
          className={`button ${props.danger === true ? 'danger' : 'primary'}`}
          onClick={props.onConfirm}
        >
          {props.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
