import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { walletQuery } from '../../shared/api/wallet';
import { formatMoney } from '../../shared/format/money';
import { useLocale } from '../../shared/format/useLocale';
import { Icon } from '../../shared/ui/Icon';
import { Money } from '../../shared/ui/Money';
import { Spinner } from '../../shared/ui/Spinner';
import { formatCountdown, useSecondsLeft } from './countdown';
import { QrImage } from './QrImage';

interface Props {
  qrcodeId: string;
  amount: number;
  /** Epoch ms at which the QR expires: the answer's time plus its expireIn. */
  expiresAt: number;
  payload: string | null | undefined;
  markup: string | null;
  cancelling: boolean;
  onCancel: () => void;
  /** The countdown reached 00:00: the QR is dropped. */
  onExpired: () => void;
  /** The wallet went up (the payment landed, most likely): the server pushes the new balance (features/balance-push), no polling. */
  onBalanceUp: (balance: number) => void;
  /** "I have transferred". */
  onTransferred: () => void;
}

/** An open QR (spec section 4): amount, the code, an mm:ss countdown, "I have transferred" and cancel. */
export function QrShown({ qrcodeId, amount, expiresAt, payload, markup, cancelling, onCancel, onExpired, onBalanceUp, onTransferred }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const left = useSecondsLeft(expiresAt);

  const expired = useRef(false);
  useEffect(() => {
    if (left > 0 || expired.current) return;
    expired.current = true;
    onExpired();
  }, [left, onExpired]);

  // Quietly (no loading bar): the figure follows the cached wallet, which the balance push updates.
  const balance = useQuery(walletQuery({ background: true })).data?.wallet.amount;
  const seen = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (balance === undefined) return;
    const before = seen.current;
    seen.current = balance;
    if (before !== undefined && balance > before) onBalanceUp(balance);
  }, [balance, onBalanceUp]);

  return (
    <section className="qr-shown" data-testid="qr-shown" data-qrcode-id={qrcodeId}>
      <Money amount={amount} className="qr-amount" testId="qr-amount" />
      <p className="qr-timer" role="timer">
        <Icon name="clock" size={18} />
        <span>{t('deposit.qr.expiresIn')}</span>
        <strong className="qr-countdown" data-testid="qr-countdown">
          {formatCountdown(left)}
        </strong>
      </p>
      <div className="qr-frame">
        <QrImage payload={payload} markup={markup} label={t('deposit.qr.image', { amount: formatMoney(amount, locale) })} />
      </div>
      <p className="qr-scan">{t('deposit.qr.scan')}</p>
      <p className="notice notice-warning">
        <Icon name="alert" size={20} />
        <span>{t('deposit.qr.note')}</span>
      </p>
      <button type="button" className="btn btn-primary btn-block" onClick={onTransferred} data-testid="qr-transferred">
        <Icon name="check" size={20} />
        {t('deposit.qr.transferred')}
      </button>
      <button type="button" className="btn btn-ghost btn-block" onClick={onCancel} disabled={cancelling} data-testid="qr-cancel">
        {cancelling && <Spinner size={18} />}
        {t('deposit.qr.cancel')}
      </button>
    </section>
  );
}
