import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GameAccount, GameLogin } from '@mw/contract/wallet';
import { ApiError } from '../../shared/api/ApiError';
import { refusalMessage } from '../../shared/api/refusalMessage';
import { useIdempotencyKey } from '../../shared/api/useIdempotencyKey';
import { patchGameAccount, useWallet } from '../../shared/api/wallet';
import { config } from '../../shared/config';
import { formatMoney } from '../../shared/format/money';
import { currencySign, useMoneyCurrency } from '../../shared/format/moneyCurrency';
import { readStorage, writeStorage } from '../../shared/storage';
import { useLocale } from '../../shared/format/useLocale';
import { showAlert } from '../../shared/ui/alerts';
import { Icon } from '../../shared/ui/Icon';
import { Modal } from '../../shared/ui/Modal';
import { Money, MoneySkeleton } from '../../shared/ui/Money';
import { PageSpinner, Spinner } from '../../shared/ui/Spinner';
import { toast } from '../../shared/ui/toast';
import { CredentialRow } from './CredentialRow';
import { fetchGameLogin, gameLoginQueryKey, useActivateGame, useGameLogin, useResetGamePassword, useTransferAllToGame } from './gameAccountApi';
import { launch, launchRoute, openLaunchTarget } from './launch';
import './slotAccount.css';

/** localStorage: the member chose not to be asked before Play moves the wallet into a game. */
const PLAY_NO_ASK_KEY = 'play-no-ask';

interface Props {
  game: GameAccount;
  /** `true` when the account or a balance changed, so the home page reloads. */
  onClose: (changed: boolean) => void;
}

/**
 * One game account (spec section 2, "Slot account modal"; section 4): activate it, see and copy its
 * login, reset the password, transfer the wallet into it, and play.
 */
export function SlotAccountModal({ game, onClose }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const wallet = useWallet();
  const [account, setAccount] = useState(game);
  const [changed, setChanged] = useState(false);
  const [launching, setLaunching] = useState(false);
  const login = useGameLogin(game.code, account.isActive);
  const activate = useActivateGame(game.code);
  const reset = useResetGamePassword(game.code);
  const transferAll = useTransferAllToGame(game.code);
  const keys = useIdempotencyKey();
  const currency = useMoneyCurrency();
  const [askingPlay, setAskingPlay] = useState(false);
  const [dontAsk, setDontAsk] = useState(false);
  const money = (amount: number) => `${currencySign(currency)}${formatMoney(amount, locale)}`;

  // Until the wallet is known, play (which moves the wallet in first) and transfer wait for it.
  const walletKnown = wallet.data !== undefined;
  const walletAmount = wallet.data?.wallet.amount ?? 0;
  const busy = launching || transferAll.isPending || !walletKnown;

  const markActive = (active: GameAccount) => {
    setAccount(active);
    setChanged(true);
    patchGameAccount(queryClient, active.code, active);
  };

  const onActivate = () => {
    activate.mutate(undefined, {
      onSuccess: (active) => {
        markActive(active);
        toast.success(t('gameAccount.activated', { name: active.name }));
      },
      onError: (error) => {
        // Opened meanwhile (another tab, a double tap): it is active, so show it as such.
        if (error instanceof ApiError && error.code === 'SLOT_ALREADY_ACTIVE') markActive({ ...account, isActive: true });
        toast.error(refusalMessage(error));
      },
    });
  };

  const onReset = () => {
    reset.mutate(undefined, {
      onSuccess: (credentials) => {
        queryClient.setQueryData<GameLogin>(gameLoginQueryKey(game.code), credentials);
        if (!account.isActive) markActive({ ...account, isActive: true });
        toast.success(t('gameAccount.passwordReset'));
      },
      onError: (error) => toast.error(refusalMessage(error)),
    });
  };

  /**
   * transferAll {to: code}. Answers 'moved', 'empty' when the server found nothing to move (the
   * cached balance was out of date), or 'failed' after showing the error.
   */
  const moveWalletIn = async (): Promise<{ outcome: 'moved'; amount: number } | { outcome: 'empty' | 'failed' }> => {
    const key = keys.keyFor({ to: game.code });
    try {
      const result = await transferAll.mutateAsync(key);
      keys.done();
      const gameAmount = result.game?.amount ?? account.amount + result.amount;
      setAccount((current) => ({ ...current, amount: gameAmount }));
      patchGameAccount(queryClient, game.code, { amount: gameAmount });
      setChanged(true);
      return { outcome: 'moved', amount: result.amount };
    } catch (error) {
      keys.failed(error);
      if (error instanceof ApiError && error.code === 'MONEY_NOT_ENOUGH') {
        setChanged(true);
        return { outcome: 'empty' };
      }
      void showAlert({ tone: 'error', title: t('common.errorTitle'), message: refusalMessage(error) });
      return { outcome: 'failed' };
    }
  };

  const onTransfer = async () => {
    if (busy || walletAmount <= 0) return;
    const moved = await moveWalletIn();
    if (moved.outcome === 'empty') void showAlert({ tone: 'error', title: t('common.errorTitle'), message: t('errors.MONEY_NOT_ENOUGH') });
    if (moved.outcome !== 'moved') return;
    onClose(true);
    void showAlert({
      tone: 'success',
      title: t('common.successTitle'),
      message: t('transfer.successMessage', { amount: formatMoney(moved.amount, locale), from: t('wallet.walletName'), to: account.name }),
    });
  };

  /**
   * Play: with money in the wallet, a sheet first says what moves where (unless the member chose
   * not to be asked again); the move itself then runs from the sheet's button (a user gesture, so
   * the game's tab may open).
   */
  const onPlayTap = () => {
    if (busy) return;
    // Moving the wallet in is asked first; a seamless game moves nothing (its bets take the wallet's money).
    if (walletAmount > 0 && !account.seamless && readStorage('local', PLAY_NO_ASK_KEY) !== 'true') {
      setAskingPlay(true);
      return;
    }
    void onPlay();
  };

  /** Spec section 5: with money in the wallet it goes into the game first; with none the game just opens. */
  const onPlay = async () => {
    if (busy) return;
    if (askingPlay && dontAsk) writeStorage('local', PLAY_NO_ASK_KEY, 'true');
    setAskingPlay(false);
    const target = openLaunchTarget(config.launchNewTab);
    setLaunching(true);
    try {
      // An empty wallet (even one the server finds empty) just means: play with what the game has.
      // A seamless game takes its bets from the wallet itself: nothing moves in first.
      if (walletAmount > 0 && !account.seamless) {
        const moved = await moveWalletIn();
        if (moved.outcome === 'failed') {
          target.abandon();
          return;
        }
        if (moved.outcome === 'moved') toast.success(t('gameAccount.playMoved', { amount: money(moved.amount), name: account.name }));
      }
      const credentials =
        login.data ?? (await queryClient.fetchQuery<GameLogin>({ queryKey: gameLoginQueryKey(game.code), queryFn: () => fetchGameLogin(game.code) }));
      const launched = await launch(launchRoute(account, credentials), target);
      if (!launched) {
        toast.error(t('gameAccount.noLaunch'));
        return;
      }
      onClose(true);
    } catch (error) {
      target.abandon();
      void showAlert({ tone: 'error', title: t('common.errorTitle'), message: refusalMessage(error) });
    } finally {
      setLaunching(false);
    }
  };

  return (
    <Modal open onClose={() => onClose(changed)} title={account.name} testId="slot-account-modal" size="sm">
      <div className="slot-account" data-code={game.code}>
        <div className="slot-banner" style={{ backgroundImage: `url("${account.background}")` }}>
          <img className="slot-banner-logo" src={account.logo} alt="" width={64} height={64} />
          <div className="slot-banner-text">
            <span className={account.isActive ? 'badge slot-status slot-status-active' : 'badge slot-status'} data-testid="slot-status">
              {account.isActive ? t('gameAccount.active') : t('gameAccount.inactive')}
            </span>
            {account.isActive && !account.seamless && (
              <span className="slot-banner-balance">
                <span className="slot-banner-label">{t('gameAccount.balance')}</span>
                <Money amount={account.amount} testId="slot-balance" />
              </span>
            )}
          </div>
        </div>

        {!account.isActive ? (
          <div className="slot-activate">
            <p className="muted">{t('gameAccount.activateHint', { name: account.name })}</p>
            <button type="button" className="btn btn-primary btn-block" onClick={onActivate} disabled={activate.isPending} data-testid="slot-activate">
              {activate.isPending ? <Spinner /> : <Icon name="plus" size={20} />}
              {t('gameAccount.activate')}
            </button>
          </div>
        ) : (
          <>
            <section className="slot-credentials" aria-label={t('gameAccount.credentials')}>
              {login.isPending ? (
                <PageSpinner />
              ) : login.isError ? (
                <div className="slot-credentials-error">
                  <p className="muted">{refusalMessage(login.error)}</p>
                  <button type="button" className="btn btn-ghost" onClick={() => void login.refetch()}>
                    {t('common.retry')}
                  </button>
                </div>
              ) : (
                <>
                  <CredentialRow label={t('gameAccount.username')} value={login.data.username} testId="slot-username" />
                  <CredentialRow label={t('gameAccount.password')} value={login.data.password} secret testId="slot-password" />
                  <button type="button" className="btn btn-ghost slot-reset" onClick={onReset} disabled={reset.isPending} data-testid="slot-reset-password">
                    {reset.isPending ? <Spinner size={18} /> : <Icon name="key" size={18} />}
                    {t('gameAccount.resetPassword')}
                  </button>
                </>
              )}
            </section>
            {askingPlay ? (
              <div className="slot-play-sheet" role="group" aria-labelledby="slot-play-sheet-title" data-testid="play-confirm">
                <p className="slot-play-sheet-title" id="slot-play-sheet-title">
                  {t('gameAccount.playConfirmTitle', { name: account.name })}
                </p>
                <p className="muted" data-testid="play-confirm-text">
                  {t('gameAccount.playConfirmText', { amount: money(walletAmount), name: account.name })}
                </p>
                <label className="checkbox">
                  <input type="checkbox" checked={dontAsk} onChange={(e) => setDontAsk(e.target.checked)} data-testid="play-dont-ask" />
                  <span>{t('gameAccount.playDontAsk')}</span>
                </label>
                <div className="btn-row">
                  <button type="button" className="btn btn-secondary" onClick={() => setAskingPlay(false)} data-testid="play-confirm-cancel">
                    {t('common.cancel')}
                  </button>
                  <button type="button" className="btn btn-primary" onClick={() => void onPlay()} disabled={busy} data-testid="play-confirm-go">
                    {t('gameAccount.playConfirm')}
                  </button>
                </div>
              </div>
            ) : (
            <div className="slot-actions">
              <button type="button" className="btn btn-primary btn-block" onClick={onPlayTap} disabled={busy} data-testid="slot-play">
                {launching ? <Spinner /> : <Icon name="play" size={20} />}
                {t('gameAccount.play')}
              </button>
              {account.seamless ? (
                <p className="slot-actions-hint" data-testid="slot-seamless-hint">
                  {t('gameAccount.seamlessHint')}
                </p>
              ) : (
                <>
              <button
                type="button"
                className="btn btn-secondary btn-block"
                onClick={() => void onTransfer()}
                disabled={busy || walletAmount <= 0}
                data-testid="slot-transfer"
              >
                {transferAll.isPending && !launching ? <Spinner /> : <Icon name="transfer" size={20} />}
                {t('gameAccount.transfer')}
              </button>
              <p className="slot-actions-hint" data-testid="slot-transfer-hint">
                {!walletKnown ? (
                  <MoneySkeleton label={t('common.loading')} />
                ) : walletAmount > 0 ? (
                  t('gameAccount.transferHint', { amount: formatMoney(walletAmount, locale) })
                ) : (
                  t('gameAccount.walletEmpty')
                )}
              </p>
                </>
              )}
            </div>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
