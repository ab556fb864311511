import { useTranslation } from 'react-i18next';
import { bankName } from '../../shared/format/bankName';
import { useLocale } from '../../shared/format/useLocale';
import { ChannelBadge } from './AccountRow';
import type { QrChannel } from './depositChannels';
import { QrDeposit } from './QrDeposit';
import './qr.css';

interface Props {
  channels: readonly QrChannel[];
  selected: QrChannel;
  onSelect: (code: string) => void;
  onCredited: () => void;
  onTransferred: () => void;
}

/** The QR providers (PAYMENT providers and KBANK's QR channel) and the chosen one's QR deposit. */
export function QrPanel({ channels, selected, onSelect, onCredited, onTransferred }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <div className="deposit-panel-body">
      {channels.length > 1 && (
        <div className="qr-providers" role="group" aria-label={t('deposit.qr.providers')}>
          {channels.map((channel) => (
            <button
              key={channel.key}
              type="button"
              className="qr-provider"
              aria-pressed={channel.code === selected.code}
              onClick={() => onSelect(channel.code)}
              data-testid={`qr-provider-${channel.code}`}
            >
              {/* A bank's full name is long for a chip: its code, as members know it (KBANK). */}
              {channel.bank ? `${channel.code} QR` : bankName(channel.name, locale)}
            </button>
          ))}
        </div>
      )}
      <article className="deposit-card" data-testid="deposit-qr" data-provider={selected.code}>
        <header className="deposit-card-head">
          <ChannelBadge code={selected.code} />
          <div className="deposit-card-title">
            <h3 className="deposit-card-name">{bankName(selected.name, locale)}</h3>
            <span className="badge badge-gold">{t('deposit.tab.qr')}</span>
          </div>
        </header>
        <QrDeposit key={selected.code} channel={selected} onCredited={onCredited} onTransferred={onTransferred} />
      </article>
    </div>
  );
}
