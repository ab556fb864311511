import { useTranslation } from 'react-i18next';
import { formatAccountNo } from '@mw/contract/rules';
import { bankName } from '../../shared/format/bankName';
import { useLocale } from '../../shared/format/useLocale';
import { Icon } from '../../shared/ui/Icon';
import { AccountRow, ChannelBadge } from './AccountRow';
import type { AccountMode, DepositBank } from './depositChannels';

export interface RegisteredAccount {
  bankName: string;
  accountNo: string;
}

interface Props {
  bank: DepositBank;
  mode: AccountMode;
  /** The member's own account, named in the automatic-deposit note. */
  registered: RegisteredAccount | null;
}

/**
 * A bank account to transfer to (SCB, KBANK, GSB, and any other bank): its number as the profile
 * writes it, the name, copy buttons. AUTO credits the wallet within a minute of a transfer from
 * the registered account; any other mode is checked by staff.
 */
export function BankAccountView({ bank, mode, registered }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <article className="deposit-card" data-testid="deposit-bank" data-bank={bank.bankCode} data-mode={mode}>
      <header className="deposit-card-head">
        <ChannelBadge code={bank.bankCode} />
        <div className="deposit-card-title">
          <h3 className="deposit-card-name">{bankName(bank.bank, locale)}</h3>
          <span className={mode === 'AUTO' ? 'badge badge-success' : 'badge'} data-testid="deposit-bank-mode">
            {t(`deposit.mode.${mode}`)}
          </span>
        </div>
      </header>
      <AccountRow
        label={t('deposit.accountNo')}
        value={formatAccountNo(bank.bankAccountNo)}
        copy={bank.bankAccountNo}
        copyLabel={t('deposit.copyAccountNo')}
        testId="deposit-bank-no"
        number
        copyTestId="copy-deposit-account-no"
      />
      <AccountRow label={t('deposit.accountName')} value={bank.bankAccountName} copyLabel={t('deposit.copyAccountName')} />
      {mode === 'AUTO' ? (
        <div className="deposit-note deposit-note-auto" data-testid="deposit-auto-note">
          <Icon name="clock" size={18} />
          <p>
            {t('deposit.note')}
            {registered && (
              <span className="deposit-note-line" data-testid="deposit-registered-account">
                {t('deposit.registeredAccount')}: {registered.bankName} <span className="deposit-nowrap">{formatAccountNo(registered.accountNo)}</span>
              </span>
            )}
          </p>
        </div>
      ) : (
        <div className="deposit-note" data-testid="deposit-manual-note">
          <Icon name="shield" size={18} />
          <p>{t('deposit.manualNote')}</p>
        </div>
      )}
    </article>
  );
}
