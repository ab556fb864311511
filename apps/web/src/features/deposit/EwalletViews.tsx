import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EWALLET_MIN_BAHT } from '@mw/contract/constants';
import { formatAccountNo } from '@mw/contract/rules';
import { ApiError } from '../../shared/api/ApiError';
import { errorMessage } from '../../shared/api/errorMessage';
import { useIdempotencyKey } from '../../shared/api/useIdempotencyKey';
import { formatMoney } from '../../shared/format/money';
import { useLocale } from '../../shared/format/useLocale';
import { TextField } from '../../shared/ui/fields';
import { Icon } from '../../shared/ui/Icon';
import { Spinner } from '../../shared/ui/Spinner';
import { toast } from '../../shared/ui/toast';
import { AccountRow, ChannelBadge } from './AccountRow';
import { useSendGiftLink } from './depositApi';
import type { DepositWallet } from './depositChannels';

/** E-wallet in AUTO mode: the number to send to, with the note to send from the member's own phone. */
export function EwalletAutoView({ wallet, username }: { wallet: DepositWallet; username: string }) {
  const { t } = useTranslation();
  const number = wallet.walletAccountNo ?? '';
  return (
    <article className="deposit-card" data-testid="deposit-ewallet">
      <header className="deposit-card-head">
        <ChannelBadge code="TRUEWALLET" icon="wallet" />
        <div className="deposit-card-title">
          <h3 className="deposit-card-name">{t('deposit.ewallet.autoTitle')}</h3>
          <span className="badge badge-success">{t('deposit.mode.AUTO')}</span>
        </div>
      </header>
      <AccountRow
        label={t('deposit.ewallet.walletNo')}
        value={formatAccountNo(number)}
        copy={number}
        copyLabel={t('deposit.ewallet.copyWalletNo')}
        testId="deposit-ewallet-no"
        number
      />
      <AccountRow label={t('deposit.accountName')} value={wallet.walletAccountName} copyLabel={t('deposit.copyAccountName')} />
      <div className="deposit-note deposit-note-auto">
        <Icon name="phone" size={18} />
        <p data-testid="deposit-ewallet-note">{t('deposit.ewallet.autoNote', { phone: formatAccountNo(username), min: EWALLET_MIN_BAHT })}</p>
      </div>
    </article>
  );
}

const GIFT_LINK_EXAMPLE = 'https://gift.truemoney.com/campaign/?v=…';

/**
 * E-wallet in any other mode: a gift link to redeem (POST /api/wallet/truelink). Send is off while
 * the link is empty; errors are red toasts (spec section 8); a server without the call yet
 * (501) gets a plain "not available yet" instead.
 */
export function GiftLinkForm({ wallet, onCredited }: { wallet: DepositWallet; onCredited: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const send = useSendGiftLink();
  const keys = useIdempotencyKey();
  const [link, setLink] = useState('');
  const [unavailable, setUnavailable] = useState(false);
  const trimmed = link.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed === '' || send.isPending) return;
    const payload = { link: trimmed, walletAccountName: wallet.walletAccountName };
    send.mutate(
      { ...payload, key: keys.keyFor(payload) },
      {
        onSuccess: (result) => {
          keys.done();
          setLink('');
          toast.success(t('deposit.ewallet.giftSuccess', { amount: formatMoney(result.amount, locale) }));
          onCredited();
        },
        onError: (error) => {
          keys.failed(error);
          if (error instanceof ApiError && error.status === 501) setUnavailable(true);
          else toast.error(errorMessage(error));
        },
      },
    );
  };

  return (
    <form className="deposit-card form" onSubmit={submit} noValidate data-testid="gift-form">
      <header className="deposit-card-head">
        <ChannelBadge code="TRUEWALLET" icon="gift" />
        <div className="deposit-card-title">
          <h3 className="deposit-card-name">{t('deposit.ewallet.giftTitle')}</h3>
        </div>
      </header>
      <TextField
        label={t('deposit.ewallet.giftLink')}
        name="giftLink"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder={GIFT_LINK_EXAMPLE}
        icon="gift"
        value={link}
        onChange={(event) => setLink(event.target.value)}
        hint={t('deposit.ewallet.giftHint', { min: EWALLET_MIN_BAHT })}
      />
      {unavailable && (
        <p className="notice notice-warning" role="status" data-testid="gift-unavailable">
          <Icon name="alert" size={20} />
          <span>{t('deposit.ewallet.giftUnavailable')}</span>
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={trimmed === '' || send.isPending} data-testid="gift-send">
        {send.isPending && <Spinner />}
        {t('deposit.ewallet.giftSend')}
      </button>
    </form>
  );
}
