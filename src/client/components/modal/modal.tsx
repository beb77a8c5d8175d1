/**
 * Modal dialog: a header with an optional back button and a close button, and a
 * required mode that cannot be closed (no close button; Escape and backdrop clicks are ignored),
 * used by the update notice. Focus moves into the dialog, Tab stays inside it, and focus returns
 * to where it was when the dialog closes. Rendered into document.body so it sits above the layout.
 */
import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { sl } from '../../../common/i18n/sl';
import { Button } from '../button/button';
import { BackIcon, CloseIcon } from '../icons/icons';
import { focusableElements, trapTab } from './focus-trap';

/** Open dialogs, innermost last: only the top one reacts to keys and holds focus. */
const openDialogs: HTMLElement[] = [];

export interface ModalProps {
  title: ReactNode;
  children?: ReactNode;
  /** Buttons at the bottom of the dialog. */
  footer?: ReactNode;
  /** Called by the close button, Escape and a backdrop click (never in required mode). */
  onClose?: () => void;
  /** Shows a back button in the header. */
  onBack?: () => void;
  /** Cannot be dismissed: no close button, Escape and backdrop ignored. */
  required?: boolean;
  /** role="alertdialog" for confirmations that interrupt the user. */
  alert?: boolean;
  /** The element to focus first (defaults to the first focusable element, else the dialog). */
  initialFocusRef?: React.RefObject<HTMLElement | null>;
  size?: 'small' | 'medium' | 'large';
  className?: string;
}

export function Modal({ title, children, footer, onClose, onBack, required = false, alert = false, initialFocusRef, size = 'medium', className }: ModalProps) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const canClose = !required && Boolean(onClose);

  // Keep the latest handlers without re-running the focus effect on every render.
  const closeRef = useRef<(() => void) | undefined>(undefined);
  closeRef.current = canClose ? onClose : undefined;

  // Before the first paint, not after it: a dialog on screen takes its keys and focus at once (a
  // key pressed between its paint and a later effect was lost, and the dialog stayed open).
  useLayoutEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = dialogRef.current;
    if (!dialog) return undefined;
    openDialogs.push(dialog);
    const isTop = () => openDialogs[openDialogs.length - 1] === dialog;
    (initialFocusRef?.current ?? focusableElements(dialog)[0] ?? dialog).focus();

    // Listen on the document, not the dialog: keys must be caught even when focus was lost to <body>.
    function onKeyDown(event: KeyboardEvent) {
      if (!isTop() || !dialog) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        closeRef.current?.();
        return;
      }
      if (trapTab(event, dialog)) event.stopPropagation();
    }
    // Focus that escapes (a click elsewhere, a screen reader jump) is brought back.
    function onFocusIn(event: FocusEvent) {
      if (!isTop() || !dialog) return;
      if (event.target instanceof Node && !dialog.contains(event.target)) {
        (focusableElements(dialog)[0] ?? dialog).focus();
      }
    }
    document.addEventListener('keydown', onKeyDown, true);
    document.addEventListener('focusin', onFocusIn);
    const body = document.body;
    const overflow = body.style.overflow;
    body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      document.removeEventListener('focusin', onFocusIn);
      openDialogs.splice(openDialogs.indexOf(dialog), 1);
      body.style.overflow = openDialogs.length > 0 ? body.style.overflow : overflow;
      // Restore focus only if it is still inside the closing dialog or lost to <body>.
      if (previous && previous.isConnected) {
        const active = document.activeElement;
        if (!active || active === body || (dialog && dialog.contains(active))) previous.focus();
      }
    };
    // Focus handling runs once per opening; initialFocusRef is read at that moment only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function onBackdropMouseDown(event: React.MouseEvent<HTMLDivElement>) {
    // Only a press that starts on the backdrop itself closes (not a text selection dragged out).
    // preventDefault keeps focus inside the dialog, which matters in required mode.
    if (event.target !== event.currentTarget) return;
    event.preventDefault();
    closeRef.current?.();
  }

  const dialog = (
    <div className="modal-backdrop" data-testid="modal-backdrop" onMouseDown={onBackdropMouseDown}>
      <div
        ref={dialogRef}
        className={['modal', `modal--${size}`, required ? 'modal--required' : '', className ?? ''].filter(Boolean).join(' ')}
        role={alert ? 'alertdialog' : 'dialog'}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={children ? bodyId : undefined}
        tabIndex={-1}
      >
        <header className="modal__header">
          {onBack ? <Button icon={BackIcon} kind="ghost" tooltip={sl.common.back} onClick={onBack} /> : null}
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          {canClose ? <Button icon={CloseIcon} kind="ghost" tooltip={sl.common.close} onClick={onClose} /> : null}
        </header>
        {children ? (
          <div id={bodyId} className="modal__body">
            {children}
          </div>
        ) : null}
        {footer ? <footer className="modal__footer">{footer}</footer> : null}
      </div>
    </div>
  );
  return createPortal(dialog, document.body);
}
