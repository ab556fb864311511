import { unitKey, useMoneyCurrency } from '../../shared/format/moneyCurrency';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toBaht } from '@mw/contract/money';
import { formatAccountNo } from '@mw/contract/rules';
import { refusalMessage } from '../../shared/api/refusalMessage';
import { useIdempotencyKey } from '../../shared/api/useIdempotencyKey';
import { useWallet } from '../../shared/api/wallet';
import { bankName } from '../../shared/format/bankName';
import { formatMoney } from '../../shared/format/money';
import { useLocale } from '../../shared/format/useLocale';
import { AmountField, FillAllButton } from '../../shared/forms/AmountField';
import { ModalMoneyHeader } from '../../shared/forms/ModalMoneyHeader';
import { showAlert } from '../../shared/ui/alerts';
import { Icon } from '../../shared/ui/Icon';
import { Modal } from '../../shared/ui/Modal';
import { Spinner } from '../../shared/ui/Spinner';
import { useWithdraw, useWithdrawLimits } from './withdrawApi';
import { checkWithdraw, type WithdrawRuleFailure } from './withdrawRules';
import './withdraw.css';

interface Props {
  /** `true` after the withdrawal was accepted, so the home page reloads. */
  onClose: (changed: boolean) => void;
}

/** Withdraw to the member's bank account (spec section 2, "Withdraw modal"; rules of section 5). */
export function WithdrawModal({ onClose }: Props) {
  const { t } = useTranslation();
  const moneyCurrency = useMoneyCurrency();
  const locale = useLocale();
  const wallet = useWallet();
  const limits = useWithdrawLimits();
  const withdraw = useWithdraw();
  const keys = useIdempotencyKey();
  const [amount, setAmount] = useState('');
  const [failure, setFailure] = useState<WithdrawRuleFailure | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (withdraw.isPending || !limits.data) return;
    const checked = checkWithdraw(amount, limits.data);
    if (!checked.ok) {
      setFailure(checked.failure);
      return;
    }
    const value = toBaht(checked.amount);
    withdraw.mutate(
      { amount: value, key: keys.keyFor({ amount: value }) },
      {
        onSuccess: () => {
          keys.done();
          onClose(true);
          void showAlert({ tone: 'success', title: t('common.successTitle'), message: t('withdraw.successMessage') });
        },
        onError: (error) => {
          keys.failed(error);
          void showAlert({ tone: 'error', title: t('common.errorTitle'), message: refusalMessage(error) });
        },
      },
    );
  };

  const money = (value: number) => formatMoney(value, locale);
  const amountError = failure ? t(`wallet.${failure.rule}`, { amount: money(failure.value), unit: t(unitKey(moneyCurrency)) }) : null;
  const bank = wallet.data?.bankAccount;
  const balance = wallet.data?.wallet.amount ?? 0;

  return (
    <Modal open onClose={() => onClose(false)} title={t('withdraw.title')} testId="withdraw-modal" size="sm">
      <form className="form" onSubmit={submit} noValidate data-testid="withdraw-form">
        <ModalMoneyHeader
          figures={[
            { label: t('wallet.balance'), amount: wallet.data?.wallet.amount, testId: 'withdraw-balance' },
            { label: t('withdraw.min'), amount: limits.data?.withdrawMin, testId: 'withdraw-min' },
            { label: t('withdraw.max'), amount: limits.data?.withdrawMax, testId: 'withdraw-max' },
          ]}
        />
        <p className="notice notice-warning" data-testid="withdraw-warning">
          <Icon name="alert" size={20} />
          <span>{t('withdraw.warning')}</span>
        </p>
        {bank && (
          <div className="withdraw-bank">
            <span className="withdraw-bank-icon" aria-hidden="true">
              <Icon name="bank" size={22} />
            </span>
            <div className="withdraw-bank-text">
              <span className="withdraw-bank-label">{t('withdraw.toAccount')}</span>
              <span className="withdraw-bank-name">{bank.bank ? bankName(bank.bank, locale) : bank.bankCode}</span>
              <span className="withdraw-bank-no tabular">
                {formatAccountNo(bank.bankAccountNo)} · {bank.bankAccountName}
              </span>
            </div>
          </div>
        )}
        <AmountField
          name="amount"
          value={amount}
          onValueChange={(text) => {
            setAmount(text);
            setFailure(null);
          }}
          error={amountError}
          hint={t('withdraw.gamesNote')}
          action={
            <FillAllButton
              disabled={!wallet.data || balance <= 0}
              onClick={() => {
                setAmount(Math.min(balance, limits.data?.withdrawMax ?? balance).toFixed(2));
                setFailure(null);
              }}
              testId="withdraw-all"
            />
          }
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={withdraw.isPending || !limits.data || !wallet.data} data-testid="withdraw-submit">
          {withdraw.isPending && <Spinner />}
          {t('withdraw.submit')}
        </button>
      </form>
    </Modal>
  );
}
