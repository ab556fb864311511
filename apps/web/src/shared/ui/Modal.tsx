import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';

interface ModalProps {
  open: boolean;
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** Omit to make the modal closable only through its own buttons. */
  onClose?: () => void;
  testId?: string;
  size?: 'sm' | 'md' | 'lg';
  /** Focus the first field on open (default). Off for modals that are mostly to read: a phone would open its keyboard. */
  focusField?: boolean;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, video[controls], [tabindex]:not([tabindex="-1"])';
let openModals = 0;

/** Bottom sheet on phones, centred card on wider screens; Escape and the backdrop close it. */
export function Modal({ open, title, children, footer, onClose, testId, size = 'md', focusField = true }: ModalProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  const focusFieldRef = useRef(focusField);
  useEffect(() => {
    closeRef.current = onClose;
    focusFieldRef.current = focusField;
  });

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    openModals += 1;
    document.body.classList.add('modal-open');
    const field = focusFieldRef.current ? panel.current?.querySelector<HTMLElement>('input, select, textarea') : null;
    const first = field ?? panel.current;
    first?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && closeRef.current) {
        event.stopPropagation();
        closeRef.current();
      } else if (event.key === 'Tab' && panel.current) {
        // Keep keyboard focus inside the dialog.
        const items = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE));
        const firstItem = items[0];
        const lastItem = items[items.length - 1];
        if (!firstItem || !lastItem) return;
        if (event.shiftKey && document.activeElement === firstItem) {
          event.preventDefault();
          lastItem.focus();
        } else if (!event.shiftKey && document.activeElement === lastItem) {
          event.preventDefault();
          firstItem.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      openModals -= 1;
      if (openModals === 0) document.body.classList.remove('modal-open');
      previous?.focus();
    };
  }, [open]);

  if (!open) return null;
  return createPortal(
    <div className="modal-root">
      <div className="modal-backdrop" onClick={() => closeRef.current?.()} aria-hidden="true" />
      <div
        ref={panel}
        className={`modal modal-${size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid={testId ?? 'modal'}
      >
        <header className="modal-header">
          <h2 id={titleId} className="modal-title">
            {title}
          </h2>
          {onClose && (
            <button type="button" className="icon-button" onClick={onClose} aria-label={t('common.close')} data-testid="modal-close">
              <Icon name="close" />
            </button>
          )}
        </header>
        <div className="modal-body">{children}</div>
        {footer && <footer className="modal-footer">{footer}</footer>}
      </div>
    </div>,
    document.body,
  );
}
