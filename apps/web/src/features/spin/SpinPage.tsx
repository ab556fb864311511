import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Coupon } from '@mw/contract/spin';
import { codeMessage } from '../../shared/api/errorMessage';
import { refusalMessage } from '../../shared/api/refusalMessage';
import { formatMoney } from '../../shared/format/money';
import { currencySign, useMoneyCurrency } from '../../shared/format/moneyCurrency';
import { useLocale } from '../../shared/format/useLocale';
import { Icon } from '../../shared/ui/Icon';
import { Modal } from '../../shared/ui/Modal';
import { Money } from '../../shared/ui/Money';
import { Pagination } from '../../shared/ui/Pagination';
import { PageSpinner, Spinner } from '../../shared/ui/Spinner';
import { toast } from '../../shared/ui/toast';
import { FairnessPanel } from './FairnessPanel';
import { useClaimCoupon, useCoupons, useReloadSpin, useSpin, useSpinSetup } from './spinApi';
import { easeOut, motion, targetRotation } from './spinMotion';
import { spinNs } from './locales';
import { WheelCanvas, type WheelHandle } from './WheelCanvas';
import './spin.css';

const COUPONS_PER_PAGE = 3;
/** Wheel result modal 2 s after the stop (spec section 9). */
const PRIZE_DELAY_MS = 2_000;
/** Claim confirm debounced 500 ms (spec section 9). */
const CLAIM_DEBOUNCE_MS = 500;

/** The smaller of 350 and 85 % of the window width, following resizes (debounced 500 ms). */
function useWheelSize(): number {
  const measure = () => Math.floor(Math.min(350, window.innerWidth * 0.85));
  const [size, setSize] = useState(measure);
  useEffect(() => {
    let timer: number | undefined;
    const onResize = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setSize(measure()), 500);
    };
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      window.clearTimeout(timer);
    };
  }, []);
  return size;
}

/**
 * The prize wheel (spec sections 2, 4, 9): the wheel with the coin count on its spin button, the
 * member's coupons (3 a page) with claim, and the provable-fairness panel. The outcome is the
 * server's; the wheel only shows it.
 */
export function SpinPage() {
  const { t: text } = useTranslation(spinNs);
  const locale = useLocale();
  const currency = useMoneyCurrency();
  const setup = useSpinSetup();
  const coupons = useCoupons();
  const spin = useSpin();
  const claim = useClaimCoupon();
  const reload = useReloadSpin();
  const size = useWheelSize();
  const wheel = useRef<WheelHandle>(null);
  const rotation = useRef(0);
  const timers = useRef<number[]>([]);
  const [spinning, setSpinning] = useState(false);
  const [prize, setPrize] = useState<string | null>(null);
  const [claiming, setClaiming] = useState<Coupon | null>(null);
  const [claimWaiting, setClaimWaiting] = useState(false);
  const [page, setPage] = useState(1);

  useEffect(() => () => timers.current.forEach((t) => window.clearTimeout(t)), []);

  const active = setup.data?.result.activeSpinwheel ?? null;
  const coins = setup.data?.result.userCoin ?? 0;
  const money = (amount: number) => `${currencySign(currency)}${formatMoney(amount, locale)}`;

  const animate = (index: number, count: number) =>
    new Promise<void>((resolve) => {
      const { turns, durationMs } = motion();
      const from = rotation.current;
      const to = targetRotation(from, index, count, turns, Math.random() - 0.5);
      const started = performance.now();
      const frame = (now: number) => {
        const t = durationMs > 0 ? (now - started) / durationMs : 1;
        rotation.current = from + (to - from) * easeOut(t);
        wheel.current?.draw(rotation.current, t >= 1 ? index : null);
        if (t < 1) requestAnimationFrame(frame);
        else resolve();
      };
      requestAnimationFrame(frame);
    });

  const onSpin = () => {
    if (!active || spinning || coins <= 0) return;
    setSpinning(true);
    spin.mutate(undefined, {
      onSuccess: (answer) => {
        const index = active.slices.findIndex((s) => s.code === answer.result?.code);
        if (!answer.success || index < 0) {
          toast.error(codeMessage(answer.error ?? 'INTERNAL_SERVER_ERROR'));
          setSpinning(false);
          reload();
          return;
        }
        void animate(index, active.slices.length).then(() => {
          timers.current.push(window.setTimeout(() => setPrize(answer.result?.label ?? ''), PRIZE_DELAY_MS));
        });
      },
      onError: (error) => {
        toast.error(refusalMessage(error));
        setSpinning(false);
        reload();
      },
    });
  };

  const closePrize = () => {
    setPrize(null);
    setSpinning(false);
    wheel.current?.draw(rotation.current, null);
    reload();
  };

  const confirmClaim = () => {
    if (!claiming || claimWaiting || claim.isPending) return;
    const coupon = claiming;
    setClaimWaiting(true);
    timers.current.push(
      window.setTimeout(() => {
        claim.mutate(coupon._id, {
          onSuccess: () => toast.success(text('claimed', { label: coupon.prize.slice })),
          onError: (error) => toast.error(refusalMessage(error)),
          onSettled: () => {
            setClaimWaiting(false);
            setClaiming(null);
          },
        });
      }, CLAIM_DEBOUNCE_MS),
    );
  };

  if (setup.isPending) return <PageSpinner />;
  const list = coupons.data ?? [];
  const shown = list.slice((page - 1) * COUPONS_PER_PAGE, page * COUPONS_PER_PAGE);
  return (
    <section className="page spin-page" data-testid="spin-page">
      <h1 className="page-title">{text('title')}</h1>
      {!active ? (
        <div className="empty-state" data-testid="spin-inactive">
          <span className="empty-state-art" aria-hidden="true">
            <Icon name="spin" size={32} />
          </span>
          <p className="muted">{setup.isError ? refusalMessage(setup.error) : codeMessage('NO_SPINWHEEL')}</p>
        </div>
      ) : (
        <>
          <div className="wheel-stage" style={{ width: size, height: size }}>
            <span className="wheel-pointer" aria-hidden="true" />
            <WheelCanvas ref={wheel} slices={active.slices} size={size} label={active.name} />
            <button
              type="button"
              className="wheel-button"
              onClick={onSpin}
              disabled={spinning || coins <= 0}
              data-testid="spin-button"
            >
              {/* Named by its content ("Spin 3 coins"): what it shows is what it is called. */}
              <span className="wheel-button-label">{spinning ? <Spinner size={18} /> : text('spin')}</span>{' '}
              <span className="wheel-button-coins" data-testid="spin-coins">
                {coins}
              </span>
              <span className="visually-hidden"> {text('coins')}</span>
            </button>
          </div>
          <p className="muted spin-hint">
            <Icon name="coin" size={16} /> {coins > 0 ? text('coinsHint') : text('noCoins')}
          </p>
        </>
      )}

      <section className="card spin-coupons" aria-labelledby="spin-coupons-title">
        <h2 id="spin-coupons-title" className="section-title">
          {text('coupons')}
        </h2>
        {list.length === 0 ? (
          <p className="muted" data-testid="coupons-empty">
            {text('couponsEmpty')}
          </p>
        ) : (
          <table className="coupon-table" data-testid="coupon-table">
            <thead>
              <tr>
                <th scope="col">{text('index')}</th>
                <th scope="col">{text('prize')}</th>
                <th scope="col" className="num">
                  {text('amount')}
                </th>
                <th scope="col">
                  <span className="visually-hidden">{text('claim')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((coupon, i) => (
                <tr key={coupon._id} data-testid="coupon-row">
                  <td>{(page - 1) * COUPONS_PER_PAGE + i + 1}</td>
                  <td>{coupon.prize.name === coupon.prize.slice ? coupon.prize.slice : `${coupon.prize.slice} · ${coupon.prize.name}`}</td>
                  <td className="num">
                    <Money amount={coupon.amount} />
                  </td>
                  <td>
                    <button type="button" className="btn btn-primary coupon-claim" onClick={() => setClaiming(coupon)} data-testid="coupon-claim">
                      {text('claim')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pagination page={page} total={list.length} pageSize={COUPONS_PER_PAGE} onChange={setPage} testId="coupon-pagination" />
      </section>

      {active && <FairnessPanel />}

      <Modal open={prize !== null} onClose={closePrize} title={text('wonTitle')} testId="prize-modal" focusField={false}
        footer={
          <button type="button" className="btn btn-primary btn-block" onClick={closePrize} data-testid="prize-close">
            {text('close')}
          </button>
        }
      >
        <p className="prize-label" data-testid="prize-label">
          {prize}
        </p>
        <p className="muted">{text('wonText', { label: prize ?? '' })}</p>
      </Modal>

      <Modal open={claiming !== null} onClose={() => (claimWaiting ? undefined : setClaiming(null))} title={text('claimTitle')} testId="claim-modal" focusField={false}
        footer={
          <div className="btn-row">
            <button type="button" className="btn btn-secondary" onClick={() => setClaiming(null)} disabled={claimWaiting}>
              {text('cancel')}
            </button>
            <button type="button" className="btn btn-primary" onClick={confirmClaim} disabled={claimWaiting} data-testid="claim-confirm">
              {claimWaiting && <Spinner />}
              {text('claimConfirm')}
            </button>
          </div>
        }
      >
        <p>{claiming ? text('claimText', { label: claiming.prize.slice, amount: money(claiming.amount) }) : ''}</p>
      </Modal>
    </section>
  );
}
