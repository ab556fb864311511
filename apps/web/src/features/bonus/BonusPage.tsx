import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BonusItem } from '@mw/contract/bonus';
import { request } from '../../shared/api/client';
import { refusalMessage } from '../../shared/api/refusalMessage';
import { formatMoney } from '../../shared/format/money';
import { currencySign, useMoneyCurrency } from '../../shared/format/moneyCurrency';
import { useLocale } from '../../shared/format/useLocale';
import { showAlert } from '../../shared/ui/alerts';
import { Icon } from '../../shared/ui/Icon';
import { Modal } from '../../shared/ui/Modal';
import { BannerCarousel } from '../../shared/ui/BannerCarousel';
import { SafeHtml } from '../../shared/ui/SafeHtml';
import { PageSpinner, Spinner } from '../../shared/ui/Spinner';
import { toast } from '../../shared/ui/toast';
import { useActivateBonus, useActiveBonus, useBonuses, useBonusProgress, useCancelFigures, useClearBonus, useNotice } from './bonusApi';
import { BONUS_PROGRESS_PATH, bonusProgressParser, conditionTitle } from './bonusProgress';
import { PromotionForm } from './PromotionForm';
import { bonusNs } from './locales';
import './bonus.css';

type Card = { bonus: BonusItem; state: 'current' | 'received' | 'open' };

function cardState(bonus: BonusItem): Card['state'] {
  if (bonus.userBonus?.isActive) return 'current';
  if ((bonus.userBonus?.received.length ?? 0) >= bonus.maxReceived) return 'received';
  return 'open';
}

/** The open condition: its type, turnover progress, the bust line and the cancel (clear) flow. */
function ActiveBonus({ type }: { type: string }) {
  const { t: text } = useTranslation(bonusNs);
  const { t } = useTranslation();
  const locale = useLocale();
  const currency = useMoneyCurrency();
  const progress = useBonusProgress();
  const clear = useClearBonus();
  const [confirming, setConfirming] = useState(false);
  const figures = useCancelFigures(confirming);
  const money = (amount: number) => `${currencySign(currency)}${formatMoney(amount, locale)}`;
  const p = progress.data?.progress ?? null;
  const percent = p && p.target > 0 ? Math.min(100, Math.floor((p.turnover / p.target) * 100)) : 0;
  const typeKey = `type_${type}` as 'type_limit' | 'type_day' | 'type_week' | 'type_promotion';
  const onClear = () =>
    clear.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        toast.success(text('cleared'));
      },
      onError: (error) => {
        setConfirming(false);
        void showAlert({ tone: 'error', title: t('common.errorTitle'), message: refusalMessage(error) });
      },
    });
  return (
    <section className="card bonus-active" data-testid="bonus-active" aria-labelledby="bonus-active-title">
      <div className="bonus-active-head">
        <h2 id="bonus-active-title" className="bonus-section-title">
          {text('activeTitle')}
        </h2>
        <span className="badge badge-success" data-testid="bonus-active-type">
          {text(typeKey)}
        </span>
      </div>
      {p ? (
        <>
          <p className="bonus-code" data-testid="bonus-condition-name">
            {conditionTitle(p, text)}
          </p>
          <div className="bonus-progress" data-testid="bonus-progress">
            <div className="bonus-progress-label">
              <span>{text('turnover')}</span>
              <span className="num">{text('turnoverOf', { done: money(p.turnover), target: money(p.target) })}</span>
            </div>
            <div className="bonus-progress-track" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label={text('turnover')}>
              <span className="bonus-progress-bar" style={{ width: `${percent}%` }} />
            </div>
          </div>
          <p className="muted bonus-note">
            {p.origin === 'invite' || p.origin === 'refund' ? text('payoutNote', { target: money(p.target), turnover: money(p.turnover) }) : text('lockNote')}
          </p>
          <p className="muted bonus-note">{text('bustLine', { amount: money(p.bust) })}</p>
        </>
      ) : (
        <Spinner />
      )}
      <button type="button" className="btn btn-secondary btn-block" onClick={() => setConfirming(true)} data-testid="bonus-cancel">
        {text('cancel')}
      </button>
      <Modal
        open={confirming}
        size="sm"
        onClose={() => (clear.isPending ? undefined : setConfirming(false))}
        title={text('cancelTitle')}
        testId="bonus-cancel-dialog"
        focusField={false}
        footer={
          <div className="btn-row">
            <button type="button" className="btn btn-secondary" onClick={() => setConfirming(false)} disabled={clear.isPending}>
              {text('keep')}
            </button>
            <button type="button" className="btn btn-primary" onClick={onClear} disabled={clear.isPending} data-testid="bonus-cancel-confirm">
              {clear.isPending && <Spinner />}
              {text('cancelConfirm')}
            </button>
          </div>
        }
      >
        <p>{text('cancelText')}</p>
        <p className="bonus-cancel-figures" data-testid="bonus-cancel-figures">
          {figures.data?.takeBack !== undefined
            ? text('cancelFigures', {
                total: money(figures.data.amount),
                wallet: money(figures.data.wallet ?? 0),
                games: money(figures.data.games ?? 0),
                takeBack: money(figures.data.takeBack),
                keep: money(figures.data.keep ?? 0),
              })
            : text('cancelLoading')}
        </p>
      </Modal>
    </section>
  );
}

/** A bonus's modal: its banners, the notice (with its percentFail) and the receive button. */
function BonusModal({ bonus, onClose }: { bonus: BonusItem; onClose: () => void }) {
  const { t: text } = useTranslation(bonusNs);
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const locale = useLocale();
  const currency = useMoneyCurrency();
  const money = (amount: number) => `${currencySign(currency)}${formatMoney(amount, locale)}`;
  const notice = useNotice();
  const activate = useActivateBonus(bonus.code);
  const receive = () =>
    activate.mutate(undefined, {
      onSuccess: async () => {
        onClose();
        // The amount and the turnover it asks, in the alert (the activation answers neither).
        const fresh = await queryClient.fetchQuery({ queryKey: ['bonus', 'progress'], queryFn: ({ signal }) => request(BONUS_PROGRESS_PATH, bonusProgressParser, { signal, background: true }), staleTime: 0 }).catch(() => null);
        const p = fresh?.progress;
        const message = p ? text('received_amount', { amount: money(p.bonus), target: money(p.target) }) : text('received_toast');
        void showAlert({ tone: 'success', title: t('common.successTitle'), message });
      },
      onError: (error) => void showAlert({ tone: 'error', title: t('common.errorTitle'), message: refusalMessage(error) }),
    });
  const noticeText = (notice.data?.notice ?? '').replace(/%percentFail%/g, String(bonus.percentFail));
  return (
    <Modal
      open
      onClose={onClose}
      title={bonus.code}
      testId="bonus-modal"
      focusField={false}
      footer={
        <button type="button" className="btn btn-primary btn-block" onClick={receive} disabled={activate.isPending} data-testid="bonus-receive">
          {activate.isPending && <Spinner />}
          {text('receive')}
        </button>
      }
    >
      <BannerCarousel banners={bonus.banners} />
      {bonus.text && <p className="bonus-rule-text" data-testid="bonus-rule-text">{bonus.text[locale]}</p>}
      {noticeText && <p className="muted bonus-notice">{noticeText}</p>}
    </Modal>
  );
}

/**
 * The bonus page (spec section 2): the active bonus with its turnover and cancel; the bonuses as
 * banner cards — current, received (exhausted this period, disabled) or open (opens the bonus
 * modal with receive).
 */
export function BonusPage() {
  const { t: text } = useTranslation(bonusNs);
  const bonuses = useBonuses();
  const active = useActiveBonus();
  const locale = useLocale();
  const [open, setOpen] = useState<BonusItem | null>(null);
  if (bonuses.isPending) return <PageSpinner />;
  const cards: Card[] = (bonuses.data ?? []).map((bonus) => ({ bonus, state: cardState(bonus) }));
  const period = (b: BonusItem) => (b.type === 'day' ? text('perDay') : b.type === 'week' ? text('perWeek') : text('once'));
  return (
    <section className="page bonus-page" data-testid="bonus-page">
      <h1 className="page-title">{text('title')}</h1>
      {active.data?.status && active.data.type && <ActiveBonus type={active.data.type} />}
      {active.data?.status ? (
        <p className="muted bonus-note" data-testid="promotion-while-active">
          {text('promoWhileActive')}
        </p>
      ) : (
        <PromotionForm />
      )}
      {bonuses.isError ? (
        <p className="muted">{refusalMessage(bonuses.error)}</p>
      ) : cards.length === 0 ? (
        <p className="muted">{text('empty')}</p>
      ) : (
        <ul className="bonus-cards">
          {cards.map(({ bonus, state }) => (
            <li key={bonus.code}>
              <button
                type="button"
                className={`bonus-card bonus-card-${state}`}
                onClick={() => setOpen(bonus)}
                disabled={state !== 'open' || active.data?.status === true}
                data-testid="bonus-card"
                data-code={bonus.code}
                data-state={state}
              >
                <span className="bonus-card-head">
                  <Icon name="gift" size={20} />
                  <span className="bonus-card-code">{bonus.code}</span>
                  {state !== 'open' && <span className={state === 'current' ? 'badge badge-success' : 'badge'}>{state === 'current' ? text('current') : text('received')}</span>}
                </span>
                {bonus.banners[0]?.html && <SafeHtml html={bonus.banners[0].html} className="bonus-card-banner" />}
                {bonus.text && (
                  <span className="bonus-card-text" data-testid="bonus-card-text">
                    {bonus.text[locale]}
                  </span>
                )}
                <span className="muted bonus-card-rule">
                  {bonus.maxReceived === 1 ? text('maxReceivedOnce') : text('maxReceived', { count: bonus.maxReceived })} {period(bonus)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {open && <BonusModal bonus={open} onClose={() => setOpen(null)} />}
    </section>
  );
}
