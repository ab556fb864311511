import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAccountNo } from '@mw/contract/rules';
import { errorMessage } from '../../shared/api/errorMessage';
import { useLocale } from '../../shared/format/useLocale';
import { CopyButton } from '../../shared/ui/CopyButton';
import { Icon } from '../../shared/ui/Icon';
import { Modal } from '../../shared/ui/Modal';
import { PageSpinner } from '../../shared/ui/Spinner';
import { useDepositAccounts } from './depositApi';
import { DemoTopUpForm } from './DemoTopUpForm';
import './deposit.css';

interface Props {
  /** `true` when the wallet changed (a demo top-up), so the home page reloads. */
  onClose: (changed: boolean) => void;
}

/**
 * Deposit, until the deposit issue brings slips and QR payments: the bank accounts to transfer to
 * (GET /api/lookup/deposit) and, on the sandbox, a demo top-up.
 */
export function DepositModal({ onClose }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const accounts = useDepositAccounts();
  const [changed, setChanged] = useState(false);
  const close = () => onClose(changed);
  const banks = accounts.data?.banks.filter((bank) => bank.bankType === 'BANK') ?? [];

  return (
    <Modal
      open
      onClose={close}
      title={t('deposit.title')}
      testId="deposit-modal"
      focusField={false}
      footer={
        <button type="button" className="btn btn-secondary btn-block" onClick={close} data-testid="deposit-close">
          {t('common.close')}
        </button>
      }
    >
      <div className="deposit-body">
        <section aria-labelledby="deposit-banks-title" className="deposit-banks">
          <h3 id="deposit-banks-title" className="deposit-section-title">
            {t('deposit.bankAccounts')}
          </h3>
          {accounts.isPending ? (
            <PageSpinner />
          ) : accounts.isError ? (
            <p className="muted">{errorMessage(accounts.error)}</p>
          ) : banks.length === 0 ? (
            <p className="muted">{t('deposit.noBanks')}</p>
          ) : (
            <ul className="deposit-bank-list">
              {banks.map((bank) => (
                <li key={`${bank.bankCode}-${bank.bankAccountNo}`} className="deposit-bank" data-testid="deposit-bank">
                  <div className="deposit-bank-head">
                    <span className="deposit-bank-icon" aria-hidden="true">
                      <Icon name="bank" size={20} />
                    </span>
                    <span className="deposit-bank-name">{locale === 'en' ? bank.bank.nameEN : bank.bank.nameTH}</span>
                    <span className="badge">{bank.bankCode}</span>
                  </div>
                  <div className="deposit-bank-row">
                    <div className="deposit-bank-value">
                      <span className="deposit-bank-label">{t('deposit.accountNo')}</span>
                      <span className="deposit-bank-no" data-testid="deposit-bank-no">
                        {formatAccountNo(bank.bankAccountNo)}
                      </span>
                    </div>
                    <CopyButton value={bank.bankAccountNo} label={t('deposit.copyAccountNo')} testId="copy-deposit-account-no" />
                  </div>
                  <div className="deposit-bank-row">
                    <div className="deposit-bank-value">
                      <span className="deposit-bank-label">{t('deposit.accountName')}</span>
                      <span className="deposit-bank-holder">{bank.bankAccountName}</span>
                    </div>
                    <CopyButton value={bank.bankAccountName} label={t('deposit.copyAccountName')} />
                  </div>
                </li>
              ))}
            </ul>
          )}
          <p className="notice">
            <Icon name="clock" size={20} />
            <span>{t('deposit.note')}</span>
          </p>
        </section>
        <DemoTopUpForm onTopUp={() => setChanged(true)} />
      </div>
    </Modal>
  );
}
