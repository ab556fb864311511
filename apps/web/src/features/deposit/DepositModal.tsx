import { useQueryClient } from '@tanstack/react-query';
import { useOwnDepositNotice } from '../../shared/ui/noticeOwner';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../shared/api/errorMessage';
import { useProfile } from '../../shared/api/profile';
import { reloadWallet, useWallet } from '../../shared/api/wallet';
import { bankName } from '../../shared/format/bankName';
import { useLocale } from '../../shared/format/useLocale';
import { ModalMoneyHeader } from '../../shared/forms/ModalMoneyHeader';
import { Icon } from '../../shared/ui/Icon';
import { Modal } from '../../shared/ui/Modal';
import { PageSpinner } from '../../shared/ui/Spinner';
import { toast } from '../../shared/ui/toast';
import { type RegisteredAccount } from './BankAccountView';
import { DemoTopUpForm } from './DemoTopUpForm';
import { useDepositChannels } from './depositApi';
import { depositViews, type DepositViews } from './depositChannels';
import { DepositPanel } from './DepositPanel';
import { DepositTabs, panelId, tabId, type DepositTab } from './DepositTabs';
import './deposit.css';

interface Props {
  /** `true` when the wallet changed (a deposit seen, a demo top-up, "I have transferred"), so the home page reloads. */
  onClose: (changed: boolean) => void;
}

const TABS: readonly DepositTab[] = ['bank', 'qr', 'ewallet'];

/**
 * Deposit (spec section 2, "Deposit modal"): the channels of GET /api/lookup/deposit by bank code
 * and mode — bank accounts (automatic or checked by staff), BCEL with its currency and guide, QR
 * deposits at the payment providers and KBANK's QR channel, e-wallet transfer and gift link —
 * above the wallet balance; on the sandbox (the lookup says `demoTopUp`), the demo top-up.
 */
export function DepositModal({ onClose }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const channels = useDepositChannels();
  const profile = useProfile();
  const wallet = useWallet();
  const [changed, setChanged] = useState(false);
  const [tab, setTab] = useState<DepositTab | null>(null);
  const [qrCode, setQrCode] = useState<string | null>(null);
  const close = () => onClose(changed);

  // The member's currency picks the channels; without a profile answer it is baht (the default).
  const currency = profile.data?.currency ?? (profile.isPending ? null : 'BAHT');
  const views = useMemo<DepositViews | null>(
    () => (channels.data && currency !== null ? depositViews(channels.data, currency) : null),
    [channels.data, currency],
  );
  const tabs = views ? TABS.filter((id) => views[id].length > 0) : [];
  const active = tab && tabs.includes(tab) ? tab : tabs[0];
  // The QR tab learns of its deposit from the push, whose toast is then the one notice; the other tabs say it themselves.
  useOwnDepositNotice(active !== 'qr');

  const credited = () => {
    setChanged(true);
    void reloadWallet(queryClient);
  };
  const transferred = () => {
    toast.info(t('deposit.qr.refreshBalance'));
    onClose(true);
  };

  const bank = wallet.data?.bankAccount;
  const registered: RegisteredAccount | null = bank ? { bankName: bank.bank ? bankName(bank.bank, locale) : bank.bankCode, accountNo: bank.bankAccountNo } : null;

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
        <ModalMoneyHeader figures={[{ label: t('wallet.balance'), amount: wallet.data?.wallet.amount, testId: 'deposit-balance' }]} />
        {channels.isError ? (
          <p className="muted">{errorMessage(channels.error)}</p>
        ) : !views ? (
          <PageSpinner />
        ) : !active ? (
          <p className="muted" data-testid="deposit-empty">
            {t('deposit.noBanks')}
          </p>
        ) : (
          <section className="deposit-channels" aria-label={t('deposit.channels')}>
            {views.manual && (
              <p className="notice notice-warning" data-testid="deposit-manual">
                <Icon name="shield" size={20} />
                <span>{t('deposit.manualMode')}</span>
              </p>
            )}
            {tabs.length > 1 && <DepositTabs tabs={tabs} active={active} onSelect={setTab} />}
            <div
              id={panelId(active)}
              role={tabs.length > 1 ? 'tabpanel' : undefined}
              aria-labelledby={tabs.length > 1 ? tabId(active) : undefined}
              className="deposit-panel"
              data-testid={`deposit-panel-${active}`}
            >
              <DepositPanel
                id={active}
                content={views}
                registered={registered}
                username={wallet.data?.profile.username ?? ''}
                qrCode={qrCode}
                onSelectQr={setQrCode}
                onCredited={credited}
                onTransferred={transferred}
              />
            </div>
          </section>
        )}
        {channels.data?.demoTopUp === true && <DemoTopUpForm onTopUp={credited} />}
      </div>
    </Modal>
  );
}
