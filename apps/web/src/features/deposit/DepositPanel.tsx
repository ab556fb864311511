import { useTranslation } from 'react-i18next';
import { Icon } from '../../shared/ui/Icon';
import { BankAccountView, type RegisteredAccount } from './BankAccountView';
import { BcelView } from './BcelView';
import { type DepositViews } from './depositChannels';
import { type DepositTab } from './DepositTabs';
import { EwalletAutoView, GiftLinkForm } from './EwalletViews';
import { QrPanel } from './QrPanel';
import { SlipUpload } from './SlipUpload';

interface Props {
  id: DepositTab;
  content: DepositViews;
  registered: RegisteredAccount | null;
  username: string;
  qrCode: string | null;
  onSelectQr: (code: string) => void;
  onCredited: () => void;
  onTransferred: () => void;
}

/** The deposit modal's open tab: bank accounts (and the slip upload), QR channels or e-wallets. */
export function DepositPanel({ id, content, registered, username, qrCode, onSelectQr, onCredited, onTransferred }: Props) {
  const { t } = useTranslation();
  switch (id) {
    case 'bank':
      return (
        <div className="deposit-panel-body">
          {content.bank.map((view) =>
            view.kind === 'bcel' ? (
              <BcelView key={view.key} bank={view.bank} />
            ) : (
              <BankAccountView key={view.key} bank={view.bank} mode={view.mode} registered={registered} />
            ),
          )}
          {content.bank.some((view) => view.kind === 'account') && (
            <>
              <p className="deposit-hint">
                <Icon name="sparkles" size={16} />
                {t('deposit.recommended')}
              </p>
              <SlipUpload onCredited={onCredited} />
            </>
          )}
        </div>
      );
    case 'qr': {
      const selected = content.qr.find((channel) => channel.code === qrCode) ?? content.qr[0];
      return selected ? <QrPanel channels={content.qr} selected={selected} onSelect={onSelectQr} onCredited={onCredited} onTransferred={onTransferred} /> : null;
    }
    case 'ewallet':
      return (
        <div className="deposit-panel-body">
          {content.ewallet.map((view) =>
            view.kind === 'ewalletAuto' ? (
              <EwalletAutoView key={view.key} wallet={view.wallet} username={username} />
            ) : (
              <GiftLinkForm key={view.key} wallet={view.wallet} onCredited={onCredited} />
            ),
          )}
        </div>
      );
  }
}
