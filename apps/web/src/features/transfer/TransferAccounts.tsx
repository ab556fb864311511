import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../shared/format/money';
import { useLocale } from '../../shared/format/useLocale';
import { SelectField } from '../../shared/ui/fields';
import { Icon } from '../../shared/ui/Icon';
import { type TransferAccount } from './transferRules';

interface Props {
  accounts: TransferAccount[];
  from: string;
  to: string;
  onFrom: (code: string) => void;
  onTo: (code: string) => void;
  onSwap: () => void;
  error: string | null;
}

/** The transfer modal's "from" and "to" pickers with the swap button between them. */
export function TransferAccounts({ accounts, from, to, onFrom, onTo, onSwap, error }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const options = accounts.map((account) => (
    <option key={account.code} value={account.code}>
      {t('transfer.option', { name: account.name, amount: formatMoney(account.amount, locale) })}
    </option>
  ));
  return (
    <div className="transfer-accounts">
      <SelectField label={t('transfer.from')} name="from" value={from} onChange={(e) => onFrom(e.target.value)}>
        <option value="">{t('transfer.choose')}</option>
        {options}
      </SelectField>
      <button
        type="button"
        className="icon-button icon-button-gold transfer-swap"
        onClick={onSwap}
        aria-label={t('transfer.swap')}
        title={t('transfer.swap')}
        data-testid="transfer-swap"
      >
        <Icon name="transfer" size={20} />
      </button>
      <SelectField label={t('transfer.to')} name="to" value={to} onChange={(e) => onTo(e.target.value)} error={error}>
        <option value="">{t('transfer.choose')}</option>
        {options}
      </SelectField>
    </div>
  );
}
