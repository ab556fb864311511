import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useTakeClaim } from './live';
import { Money } from './money';

/** Who the money belongs to, as the dialog names them. */
export interface ConfirmMember {
  name?: string | null;
  phone?: string | null;
  bank?: string | null;
  account?: string | null;
}

export interface ConfirmDialogProps {
  /** What the operator is about to do ("Approve and pay"). */
  title: string;
  member?: ConfirmMember | null;
  /** The amount in major units and its currency. */
  amount?: { value: number; currency: string | null | undefined } | null;
  /** What will happen once confirmed, in words ("The bank transfers ฿1,500.00 to KBANK 123-4-56789-0"). */
  effect: ReactNode;
  /** A reason the operator must type (rejections, returns, manual credits), or may type. */
  reason?: 'required' | 'optional';
  /** The reason field's label (default: "Reason"). */
  reasonLabel?: string;
  /** Other fields the action needs (a bank reference), shown above the reason. */
  children?: ReactNode;
  confirmLabel: string;
  /** A destructive action (refusal, return) shows its button as such. */
  danger?: boolean;
  busy?: boolean;
  /** Whether the extra fields (children) are complete: the confirm button waits for them. */
  ready?: boolean;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
  /** The queue item this is about: other operators see it as taken while the dialog is open. */
  claim?: { kind: string; id: string };
}

/**
 * The confirmation before anything that moves or releases money: it names the member (name,
 * phone, bank and account), the amount in the member's currency and what will happen. Nothing is
 * sent until the operator presses the confirm button; Cancel, Escape or a click outside send
 * nothing. Rendered only while open (`{open ? <ConfirmDialog …/> : null}`).
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const box = useRef<HTMLDivElement>(null);
  const { onCancel, busy } = props;
  useTakeClaim(props.claim?.kind ?? '', props.claim?.id, props.claim !== undefined);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    box.current?.querySelector<HTMLElement>('textarea, input, select, button:not([data-cancel])')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !busy) onCancel();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus();
    };
    // Focus once when opened; Escape follows the latest busy state through the closure below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const needsReason = props.reason === 'required';
  const canConfirm = !props.busy && (props.ready ?? true) && (!needsReason || reason.trim().length > 0);
  const member = props.member;

  return (
    <div className="dialog-backdrop" onMouseDown={(event) => event.target === event.currentTarget && !props.busy && props.onCancel()}>
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={box}>
        <h2 id={titleId}>{props.title}</h2>
        <dl className="dialog-facts">
          {member ? (
            <>
              <dt>{t('kit.member')}</dt>
              <dd data-testid="confirm-member">
                <strong>{member.name || '—'}</strong>
                {member.phone ? <span> · {member.phone}</span> : null}
                {member.bank || member.account ? (
                  <span className="dialog-bank">
                    {' '}
                    · {member.bank ?? ''} {member.account ?? ''}
                  </span>
                ) : null}
              </dd>
            </>
          ) : null}
          {props.amount ? (
            <>
              <dt>{t('kit.amount')}</dt>
              <dd className="dialog-amount" data-testid="confirm-amount">
                <Money amount={props.amount.value} currency={props.amount.currency} />
              </dd>
            </>
          ) : null}
          <dt>{t('kit.effect')}</dt>
          <dd>{props.effect}</dd>
        </dl>
        {props.children}
        {props.reason ? (
          <div className="field">
            <label htmlFor={reasonId}>
              {props.reasonLabel ?? t('kit.reason')}
              {needsReason ? ` (${t('kit.required')})` : ''}
            </label>
            <textarea id={reasonId} rows={2} maxLength={200} value={reason} required={needsReason} onChange={(event) => setReason(event.target.value)} />
          </div>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="btn" data-cancel onClick={props.onCancel} disabled={props.busy}>
            {t('common.cancel')}
          </button>
          <button type="button" className={props.danger ? 'btn btn-danger' : 'btn btn-primary'} disabled={!canConfirm} onClick={() => props.onConfirm(reason.trim())}>
            {props.busy ? t('kit.working') : props.confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
