import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EWALLET_MIN } from '@mw/contract/currency-figures';
import { formatAccountNo } from '@mw/contract/rules';
import { refusalMessage } from '../../shared/api/refusalMessage';
import { useIdempotencyKey } from '../../shared/api/useIdempotencyKey';
import { formatMoney } from '../../shared/format/money';
import { currentMoneyCurrency } from '../../shared/format/moneyCurrency';
import { useLocale } from '../../shared/format/useLocale';
import { TextField } from '../../shared/ui/fields';
import { Icon } from '../../shared/ui/Icon';
import { Spinner } from '../../shared/ui/Spinner';
import { toast } from '../../shared/ui/toast';
import { AccountRow, ChannelBadge } from './AccountRow';
import { useSendGiftLink } from './depositApi';
import type { DepositWallet } from './depositChannels';
import { depositNs } from './locales';
import { NoWebCrypto, sealGiftLink } from './giftLinkSeal';

/** The smallest voucher in the member's currency: the server's (GET /api/lookup/deposit), else the default. */
function walletMinimum(wallet: DepositWallet): number {
  return wallet.minimum ?? EWALLET_MIN[currentMoneyCurrency()];
}

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
        <p data-testid="deposit-ewallet-note">{t('deposit.ewallet.autoNote', { phone: formatAccountNo(username), min: walletMinimum(wallet) })}</p>
      </div>
    </article>
  );
}

const GIFT_LINK_EXAMPLE = 'https://gift.truemoney.com/campaign/?v=…';

/**
 * E-wallet in any other mode: a gift link to redeem (POST /api/wallet/truelink), encrypted in the
 * browser for the e-wallet's public key (giftLinkSeal.ts). Send is off while the link is empty;
 * errors are red toasts (spec section 8). A link is encrypted once: a retry of the same link
 * sends the same text under the same Idempotency-Key.
 */
export function GiftLinkForm({ wallet, onCredited }: { wallet: DepositWallet; onCredited: () => void }) {
  const { t } = useTranslation();
  const { t: text } = useTranslation(depositNs);
  const locale = useLocale();
  const send = useSendGiftLink();
  const keys = useIdempotencyKey();
  const [link, setLink] = useState('');
  const [sealing, setSealing] = useState(false);
  const sealedFor = useRef<{ link: string; sealed: string } | null>(null);
  const trimmed = link.trim();

  const seal = async (plain: string): Promise<string> => {
    if (sealedFor.current?.link === plain) return sealedFor.current.sealed;
    if (!wallet.publicKey) throw new NoWebCrypto();
    const sealed = await sealGiftLink(wallet.publicKey, plain, wallet.walletAccountName);
    sealedFor.current = { link: plain, sealed };
    return sealed;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (trimmed === '' || send.isPending || sealing) return;
    let sealed: string;
    setSealing(true);
    try {
      sealed = await seal(trimmed);
    } catch {
      toast.error(text('giftNoCrypto'));
      return;
    } finally {
      setSealing(false);
    }
    const payload = { link: trimmed, walletAccountName: wallet.walletAccountName };
    send.mutate(
      { sealed, key: keys.keyFor(payload) },
      {
        onSuccess: (result) => {
          keys.done();
          setLink('');
          toast.success(t('deposit.ewallet.giftSuccess', { amount: formatMoney(result.amount, locale) }));
          onCredited();
        },
        onError: (error) => {
          keys.failed(error);
          toast.error(refusalMessage(error));
        },
      },
    );
  };

  return (
    <form className="deposit-card form" onSubmit={(event) => void submit(event)} noValidate data-testid="gift-form">
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
        hint={t('deposit.ewallet.giftHint', { min: walletMinimum(wallet) })}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={trimmed === '' || send.isPending || sealing} data-testid="gift-send">
        {(send.isPending || sealing) && <Spinner />}
        {t('deposit.ewallet.giftSend')}
      </button>
    </form>
  );
}
