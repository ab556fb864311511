import { Link } from '../../shared/router';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../shared/format/money';
import { currencySign, useMoneyCurrency } from '../../shared/format/moneyCurrency';
import { useLocale } from '../../shared/format/useLocale';
import { Icon } from '../../shared/ui/Icon';
import { conditionTitle, type BonusProgressCondition } from './bonusProgress';
import { bonusNs } from './locales';
import './bonus.css';

/** The home page's card of the open bonus condition's turnover, linking to the bonus page (HomeBonusProgress.tsx loads it). */
export function HomeBonusProgressCard({ progress: p }: { progress: BonusProgressCondition }) {
  const { t: text } = useTranslation(bonusNs);
  const locale = useLocale();
  const currency = useMoneyCurrency();
  const money = (amount: number) => `${currencySign(currency)}${formatMoney(amount, locale)}`;
  const percent = p.target > 0 ? Math.min(100, Math.floor((p.turnover / p.target) * 100)) : 0;
  return (
    <Link to="/user/bonus" className="card home-bonus-progress" data-testid="home-bonus-progress">
      <span className="bonus-progress-label">
        <span>
          <Icon name="gift" size={18} /> {conditionTitle(p, text)} · {text('turnover')}
        </span>
        <span className="num">{text('turnoverOf', { done: money(p.turnover), target: money(p.target) })}</span>
      </span>
      <span className="bonus-progress-track" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label={text('turnover')}>
        <span className="bonus-progress-bar" style={{ width: `${percent}%` }} />
      </span>
    </Link>
  );
}
