import { useTranslation } from 'react-i18next';
import { formatAccountNo } from '@mw/contract/rules';
import { type useProfile } from '../../shared/api/profile';
import { bankName } from '../../shared/format/bankName';
import { useLocale } from '../../shared/format/useLocale';
import { copyText } from '../../shared/ui/copy';
import { Icon } from '../../shared/ui/Icon';

interface Props {
  profile: NonNullable<ReturnType<typeof useProfile>['data']>;
  /** The name can be corrected (spec: KTB, TMB, BBL while it is not English-only). */
  canEditName: boolean;
  onEditName: () => void;
}

/** The profile page's bank section: bank, account name (copy, and correct where allowed) and account number (copy). */
export function ProfileBankSection({ profile: p, canEditName, onEditName }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <section className="card" aria-labelledby="profile-bank">
      <h2 id="profile-bank" className="section-title">
        {t('profile.bankInfo')}
      </h2>
      <dl className="info-list">
        <div className="info-row">
          <dt>{t('profile.bankName')}</dt>
          <dd data-testid="profile-bank-name">{p.bank ? bankName(p.bank, locale) : p.bankCode}</dd>
        </div>
        <div className="info-row">
          <dt>{t('profile.bankAccountName')}</dt>
          <dd className="info-value-actions">
            <span data-testid="profile-bank-account-name">{p.bankAccountName}</span>
            {canEditName && (
              <button
                type="button"
                className="icon-button icon-button-gold"
                onClick={onEditName}
                aria-label={t('profile.editBankAccountName')}
                title={t('profile.editBankAccountName')}
                data-testid="edit-bank-account-name-button"
              >
                <Icon name="pencil" size={20} />
              </button>
            )}
            <button
              type="button"
              className="icon-button"
              onClick={() => void copyText(p.bankAccountName)}
              aria-label={t('common.copy')}
              title={t('common.copy')}
              data-testid="copy-bank-account-name"
            >
              <Icon name="copy" size={20} />
            </button>
          </dd>
        </div>
        <div className="info-row">
          <dt>{t('profile.bankAccountNo')}</dt>
          <dd className="info-value-actions">
            <span className="tabular" data-testid="profile-bank-account-no">
              {formatAccountNo(p.bankAccountNo)}
            </span>
            <button
              type="button"
              className="icon-button"
              onClick={() => void copyText(p.bankAccountNo)}
              aria-label={t('common.copy')}
              title={t('common.copy')}
              data-testid="copy-bank-account-no"
            >
              <Icon name="copy" size={20} />
            </button>
          </dd>
        </div>
      </dl>
    </section>
  );
}
