import { unitKey, useMoneyCurrency } from '../../shared/format/moneyCurrency';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { WALLET_CODE } from '@mw/contract/constants';
import { MIN_TRANSFER } from '@mw/contract/currency-figures';
import { toBaht } from '@mw/contract/money';
import { refusalMessage } from '../../shared/api/refusalMessage';
import { useIdempotencyKey } from '../../shared/api/useIdempotencyKey';
import { useWallet } from '../../shared/api/wallet';
import { formatMoney } from '../../shared/format/money';
import { useLocale } from '../../shared/format/useLocale';
import { AmountField, FillAllButton } from '../../shared/forms/AmountField';
import { ModalMoneyHeader } from '../../shared/forms/ModalMoneyHeader';
import { showAlert } from '../../shared/ui/alerts';
import { Modal } from '../../shared/ui/Modal';
import { Spinner } from '../../shared/ui/Spinner';
import { useWithdrawLimits } from '../withdraw/withdrawApi';
import { TransferAccounts } from './TransferAccounts';
import { useTransfer } from './transferApi';
import { checkTransfer, transferAccounts, type TransferRuleFailure } from './transferRules';
import './transfer.css';

interface Props {
  /** `true` after a transfer went through, so the home page reloads (spec section 4). */
  onClose: (changed: boolean) => void;
}

/** Transfer between the wallet and active game accounts (spec section 2, "Transfer modal"; rules of section 5). */
export function TransferModal({ onClose }: Props) {
  const { t } = useTranslation();
  const moneyCurrency = useMoneyCurrency();
  const locale = useLocale();
  const wallet = useWallet();
  const transfer = useTransfer();
  // The transfer minimum of the member's currency (the lookup's, else the default: ฿1, ₭1,000).
  const limits = useWithdrawLimits();
  const transferMin = limits.data?.transferMin ?? MIN_TRANSFER[moneyCurrency];
  const keys = useIdempotencyKey();
  const [from, setFrom] = useState<string>(WALLET_CODE);
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState('');
  const [failure, setFailure] = useState<TransferRuleFailure | null>(null);

  const walletName = t('wallet.walletName');
  const accounts = wallet.data ? transferAccounts(wallet.data, walletName) : [];
  const nameOf = (code: string) => accounts.find((account) => account.code === code)?.name ?? code;
  const source = accounts.find((account) => account.code === from);

  const edit = (apply: () => void) => {
    apply();
    setFailure(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (transfer.isPending) return;
    const checked = checkTransfer(from, to, amount, transferMin);
    if (!checked.ok) {
      setFailure(checked.failure);
      return;
    }
    const body = { from, to, amount: toBaht(checked.amount) };
    transfer.mutate(
      { body, key: keys.keyFor(body) },
      {
        onSuccess: (result) => {
          keys.done();
          onClose(true);
          void showAlert({
            tone: 'success',
            title: t('common.successTitle'),
            message: t('transfer.successMessage', { amount: formatMoney(result.amount, locale), from: nameOf(from), to: nameOf(to) }),
          });
        },
        onError: (error) => {
          keys.failed(error);
          void showAlert({ tone: 'error', title: t('common.errorTitle'), message: refusalMessage(error) });
        },
      },
    );
  };

  const accountsError =
    failure?.field === 'accounts' ? t(failure.rule === 'selectAccMsg' ? 'transfer.selectAccMsg' : 'transfer.canNotTransferMsg') : null;
  const amountError =
    failure?.field === 'amount' ? t('wallet.minAmountMsg', { amount: formatMoney(failure.minimum, locale), unit: t(unitKey(moneyCurrency)) }) : null;

  return (
    <Modal open onClose={() => onClose(false)} title={t('transfer.title')} testId="transfer-modal" size="sm">
      <form className="form" onSubmit={submit} noValidate data-testid="transfer-form">
        <ModalMoneyHeader figures={[{ label: t('wallet.balance'), amount: wallet.data?.wallet.amount, testId: 'transfer-wallet-balance' }]} />
        <TransferAccounts
          accounts={accounts}
          from={from}
          to={to}
          onFrom={(code) => edit(() => setFrom(code))}
          onTo={(code) => edit(() => setTo(code))}
          onSwap={() =>
            edit(() => {
              setFrom(to);
              setTo(from);
            })
          }
          error={accountsError}
        />
        <AmountField
          name="amount"
          value={amount}
          onValueChange={(text) => edit(() => setAmount(text))}
          error={amountError}
          hint={source ? t('transfer.available', { amount: formatMoney(source.amount, locale) }) : t('transfer.minimum', { amount: formatMoney(1, locale) })}
          action={
            <FillAllButton
              disabled={!source || source.amount <= 0}
              onClick={() => edit(() => setAmount(source ? source.amount.toFixed(2) : ''))}
              testId="transfer-all"
            />
          }
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={transfer.isPending || !wallet.data} data-testid="transfer-submit">
          {transfer.isPending && <Spinner />}
          {t('transfer.submit')}
        </button>
      </form>
    </Modal>
  );
}
