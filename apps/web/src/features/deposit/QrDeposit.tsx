import { unitKey, useMoneyCurrency } from '../../shared/format/moneyCurrency';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toBaht } from '@mw/contract/money';
import { ApiError } from '../../shared/api/ApiError';
import { codeMessage } from '../../shared/api/errorMessage';
import { refusalMessage } from '../../shared/api/refusalMessage';
import { parseAmountInput } from '../../shared/format/amountInput';
import { formatMoney } from '../../shared/format/money';
import { useLocale } from '../../shared/format/useLocale';
import { AmountField } from '../../shared/forms/AmountField';
import { PresetChips } from '../../shared/forms/PresetChips';
import { Icon } from '../../shared/ui/Icon';
import { PageSpinner, Spinner } from '../../shared/ui/Spinner';
import { toast } from '../../shared/ui/toast';
import { dropQr, qrQueryKey, useCancelQr, useCreateQr, useQrState } from './depositApi';
import type { QrChannel } from './depositChannels';
import { QrShown } from './QrShown';

interface Props {
  channel: QrChannel;
  /** The wallet took money in while the QR was shown. */
  onCredited: () => void;
  /** "I have transferred": the modal closes. */
  onTransferred: () => void;
}

/**
 * QR deposit at one provider (spec section 4): no QR → an amount (presets, the provider's
 * minimum) and create → the QR with its countdown, until 00:00, cancel, or the payment.
 */
export function QrDeposit({ channel, onCredited, onTransferred }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const state = useQrState(channel.code);
  const cancel = useCancelQr(channel.code);
  const { code } = channel;

  // An expired QR leaves its amount behind: the member gets a new QR for it in one tap. Its id is
  // kept: the server may still list it for a moment after 00:00 (clocks differ), and it is gone.
  const [expired, setExpired] = useState<{ id: string; amount: number; showing: boolean } | null>(null);
  const expire = useCallback(
    (id: string, amount: number) => {
      dropQr(queryClient, code);
      setExpired({ id, amount, showing: true });
    },
    [queryClient, code],
  );

  const balanceUp = useCallback(
    (balance: number) => {
      onCredited();
      toast.success(t('deposit.qr.received', { amount: formatMoney(balance, locale) }));
      // A paid QR is closed on the server: read its state again.
      void queryClient.invalidateQueries({ queryKey: qrQueryKey(code) });
    },
    [onCredited, queryClient, code, t, locale],
  );

  if (state.isPending) return <PageSpinner />;
  if (state.isError) {
    return (
      <div className="notice" role="alert">
        <span>{refusalMessage(state.error)}</span>
        <button type="button" className="btn btn-ghost" onClick={() => void state.refetch()}>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  const qr = state.data;
  // A QR with no time left is as good as gone (the server may still list it for a moment after 00:00).
  if (qr.hasQrcode && qr.qrcodeId && qr.qrcodeId !== expired?.id && qr.amount !== null && qr.expireIn !== null && qr.expireIn > 0) {
    const qrcodeId = qr.qrcodeId;
    return (
      <QrShown
        key={qrcodeId}
        qrcodeId={qrcodeId}
        amount={qr.amount}
        expiresAt={state.dataUpdatedAt + qr.expireIn * 1_000}
        payload={qr.payload}
        markup={qr.qrcode}
        cancelling={cancel.isPending}
        onCancel={() =>
          cancel.mutate(qrcodeId, {
            onSuccess: () => toast.info(t('deposit.qr.cancelled')),
            onError: (error) => toast.error(refusalMessage(error)),
          })
        }
        onExpired={() => expire(qrcodeId, qr.amount ?? 0)}
        onBalanceUp={balanceUp}
        onTransferred={onTransferred}
      />
    );
  }
  const dismiss = () => setExpired((current) => current && { ...current, showing: false });
  if (expired?.showing) return <QrExpired channel={channel} amount={expired.amount} onOther={dismiss} onRenewed={dismiss} />;
  return <QrCreateForm channel={channel} />;
}

/** The QR ran out: says so, and offers a new QR for the same amount (or another amount). */
function QrExpired({ channel, amount, onOther, onRenewed }: { channel: QrChannel; amount: number; onOther: () => void; onRenewed: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const create = useCreateQr(channel.code);
  const renew = () =>
    create.mutate(amount, {
      onSuccess: (state) => {
        if (!state.hasQrcode) toast.error(codeMessage(state.message ?? 'QR_FAIL'));
        else onRenewed();
      },
      onError: (failure) => toast.error(refusalMessage(failure)),
    });
  return (
    <section className="qr-expired" data-testid="qr-expired" role="status">
      <Icon name="clock" size={28} />
      <h3 className="qr-expired-title">{t('deposit.qr.expiredTitle')}</h3>
      <p className="muted">{t('deposit.qr.expiredText')}</p>
      <button type="button" className="btn btn-primary btn-block" onClick={renew} disabled={create.isPending} data-testid="qr-renew">
        {create.isPending && <Spinner />}
        {t('deposit.qr.renew', { amount: formatMoney(amount, locale) })}
      </button>
      <button type="button" className="btn btn-ghost btn-block" onClick={onOther} data-testid="qr-other-amount">
        {t('deposit.qr.otherAmount')}
      </button>
    </section>
  );
}

function QrCreateForm({ channel }: { channel: QrChannel }) {
  const { t } = useTranslation();
  const moneyCurrency = useMoneyCurrency();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const create = useCreateQr(channel.code);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const satang = parseAmountInput(amount);
  const minimumText = (minimum: number) => t('wallet.minAmountMsg', { amount: formatMoney(minimum, locale), unit: t(unitKey(moneyCurrency)) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending || satang === null || satang <= 0) return;
    if (satang < Math.round(channel.minimum * 100)) {
      setError(minimumText(channel.minimum));
      return;
    }
    create.mutate(toBaht(satang), {
      onSuccess: (state) => {
        // A gateway that failed answers 200 without a QR: its reason in a red toast (spec section 8).
        if (!state.hasQrcode) toast.error(codeMessage(state.message ?? 'QR_FAIL'));
      },
      onError: (failure) => {
        const detail = failure instanceof ApiError ? failure.detail : {};
        const code = failure instanceof ApiError ? failure.code : null;
        if (code === 'DEPOSIT_MINIMUM' && detail.minimum !== undefined) setError(minimumText(detail.minimum));
        else if (code === 'DEPOSIT_MAXIMUM' && detail.maximum !== undefined) {
          setError(t('wallet.maxAmountMsg', { amount: formatMoney(detail.maximum, locale), unit: t(unitKey(moneyCurrency)) }));
        } else {
          toast.error(refusalMessage(failure));
          // An open QR at this provider already (another tab): show it.
          if (code === 'QR_ALREADY_OPEN') void queryClient.invalidateQueries({ queryKey: qrQueryKey(channel.code) });
        }
      },
    });
  };

  return (
    <form className="form qr-create" onSubmit={submit} noValidate data-testid="qr-create-form">
      <PresetChips
        amounts={channel.presets}
        selected={satang !== null && satang % 100 === 0 ? satang / 100 : null}
        onPick={(preset) => {
          setAmount(String(preset));
          setError(null);
        }}
        testId="qr-preset"
      />
      <AmountField
        name="qrAmount"
        label={t('deposit.qr.amount')}
        value={amount}
        onValueChange={(text) => {
          setAmount(text);
          setError(null);
        }}
        error={error}
        hint={t('deposit.qr.minimum', { amount: formatMoney(channel.minimum, locale) })}
      />
      {/* Spec section 5: create is off while the amount is 0 or less. */}
      <button type="submit" className="btn btn-primary btn-block" disabled={create.isPending || satang === null || satang <= 0} data-testid="qr-create">
        {create.isPending && <Spinner />}
        {t('deposit.qr.create')}
      </button>
    </form>
  );
}
