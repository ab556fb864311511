import { useTranslation } from 'react-i18next';
import { formatAccountNo } from '@mw/contract/rules';
import { bankName } from '../../shared/format/bankName';
import { useLocale } from '../../shared/format/useLocale';
import { Icon } from '../../shared/ui/Icon';
import { AccountRow, ChannelBadge } from './AccountRow';
import { BcelGuideImage } from './BcelGuideImage';
import type { DepositBank } from './depositChannels';

const CURRENCIES = ['LAK', 'BAHT'] as const;
const isKnownCurrency = (code: string): code is (typeof CURRENCIES)[number] => (CURRENCIES as readonly string[]).includes(code);

/** BCEL (Laos): the account, its currency (kip) and a picture guide of the BCEL One transfer. */
export function BcelView({ bank }: { bank: DepositBank }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const guide = t('deposit.bcel.guide');
  return (
    <article className="deposit-card" data-testid="deposit-bcel" data-currency={bank.currency}>
      <header className="deposit-card-head">
        <ChannelBadge code={bank.bankCode} />
        <div className="deposit-card-title">
          <h3 className="deposit-card-name">{bankName(bank.bank, locale)}</h3>
          <span className="badge badge-gold">{bank.currency}</span>
        </div>
      </header>
      <div className="deposit-row">
        <div className="deposit-row-value">
          <span className="deposit-row-label">{t('deposit.currency')}</span>
          <span className="deposit-row-text" data-testid="deposit-currency">
            {isKnownCurrency(bank.currency) ? t(`register.currencies.${bank.currency}`) : bank.currency}
          </span>
        </div>
      </div>
      <AccountRow
        label={t('deposit.accountNo')}
        value={formatAccountNo(bank.bankAccountNo)}
        copy={bank.bankAccountNo}
        copyLabel={t('deposit.copyAccountNo')}
        testId="deposit-bank-no"
        number
      />
      <AccountRow label={t('deposit.accountName')} value={bank.bankAccountName} copyLabel={t('deposit.copyAccountName')} />
      <figure className="bcel-guide">
        <BcelGuideImage label={guide} />
        <figcaption className="bcel-guide-title">{guide}</figcaption>
        <ol className="bcel-guide-steps">
          <li>{t('deposit.bcel.step1')}</li>
          <li>{t('deposit.bcel.step2')}</li>
          <li>{t('deposit.bcel.step3')}</li>
        </ol>
      </figure>
      <div className="deposit-note deposit-note-auto">
        <Icon name="clock" size={18} />
        <p>{t('deposit.bcel.note')}</p>
      </div>
    </article>
  );
}
