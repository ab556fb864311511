import { unitKey, useMoneyCurrency } from '../../shared/format/moneyCurrency';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DEMO_TOP_UP_PRESETS, MIN_TRANSFER_BAHT } from '@mw/contract/constants';
import { toBaht } from '@mw/contract/money';
import { ApiError } from '../../shared/api/ApiError';
import { refusalMessage } from '../../shared/api/refusalMessage';
import { useIdempotencyKey } from '../../shared/api/useIdempotencyKey';
import { parseAmountInput } from '../../shared/format/amountInput';
import { formatMoney } from '../../shared/format/money';
import { useLocale } from '../../shared/format/useLocale';
import { AmountField } from '../../shared/forms/AmountField';
import { PresetChips } from '../../shared/forms/PresetChips';
import { Icon } from '../../shared/ui/Icon';
import { Spinner } from '../../shared/ui/Spinner';
import { toast } from '../../shared/ui/toast';
import { useDemoTopUp } from './depositApi';


/** Set once the server refuses demo top-ups (it has real payments): the form stays hidden from then on. */
const refusal = { seen: false };

/**
 * Sandbox only: credits the wallet at once, so every wallet screen can be tried without a bank.
 * Without sandbox payments the call does not exist (404 NOT_FOUND; 403 SANDBOX_ONLY from older
 * servers); the form then gives way to a message saying it is for the test system only.
 */
export function DemoTopUpForm({ onTopUp }: { onTopUp: () => void }) {
  const { t } = useTranslation();
  const moneyCurrency = useMoneyCurrency();
  const locale = useLocale();
  const topUp = useDemoTopUp();
  const keys = useIdempotencyKey();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState(refusal.seen);

  if (refused) {
    return (
      <p className="notice" data-testid="demo-topup-refused">
        <Icon name="alert" size={20} />
        <span>{t('errors.SANDBOX_ONLY')}</span>
      </p>
    );
  }

  const send = (text: string) => {
    if (topUp.isPending) return;
    const satang = parseAmountInput(text);
    if (satang === null || satang < MIN_TRANSFER_BAHT * 100) {
      setError(t('wallet.minAmountMsg', { amount: formatMoney(MIN_TRANSFER_BAHT, locale), unit: t(unitKey(moneyCurrency)) }));
      return;
    }
    const value = toBaht(satang);
    topUp.mutate(
      { amount: value, key: keys.keyFor({ amount: value }) },
      {
        onSuccess: (result) => {
          keys.done();
          setAmount('');
          toast.success(t('deposit.demoSuccess', { amount: formatMoney(result.amount, locale) }));
          onTopUp();
        },
        onError: (failure) => {
          keys.failed(failure);
          if (failure instanceof ApiError && (failure.code === 'SANDBOX_ONLY' || failure.code === 'NOT_FOUND')) {
            refusal.seen = true;
            setRefused(true);
            return;
          }
          setError(refusalMessage(failure));
        },
      },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(amount);
  };

  return (
    <section className="demo-topup" aria-labelledby="demo-topup-title" data-testid="demo-topup">
      <div className="demo-topup-head">
        <span className="badge badge-gold">{t('deposit.sandbox')}</span>
        <h3 id="demo-topup-title" className="demo-topup-title">
          {t('deposit.demoTitle')}
        </h3>
      </div>
      <p className="muted demo-topup-hint">{t('deposit.demoHint')}</p>
      <form className="form" onSubmit={submit} noValidate data-testid="demo-topup-form">
        <PresetChips
          amounts={DEMO_TOP_UP_PRESETS[moneyCurrency]}
          onPick={(preset) => {
            setAmount(String(preset));
            setError(null);
            send(String(preset));
          }}
          disabled={topUp.isPending}
          testId="demo-topup"
        />
        <AmountField
          label={t('deposit.otherAmount')}
          name="topUpAmount"
          value={amount}
          onValueChange={(text) => {
            setAmount(text);
            setError(null);
          }}
          error={error}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={topUp.isPending} data-testid="demo-topup-submit">
          {topUp.isPending && <Spinner />}
          {t('deposit.demoSubmit')}
        </button>
      </form>
    </section>
  );
}
