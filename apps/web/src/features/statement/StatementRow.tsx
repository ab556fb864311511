import i18next from 'i18next';
import type { StatementItem, StatementType } from '@mw/contract/statement';
import { formatDateTime } from '../../shared/format/date';
import { formatTimeAgo } from '../../shared/format/timeAgo';
import { useLocale } from '../../shared/format/useLocale';
import { Icon, type IconName } from '../../shared/ui/Icon';
import { Money } from '../../shared/ui/Money';
import { activityText, statementSign, statusKind, statusText, type StatementNames } from './statementText';

const ICONS: Record<StatementType, IconName> = {
  deposit: 'deposit',
  withdraw: 'withdraw',
  transfer: 'transfer',
  bonus: 'gift',
  finish_bonus: 'flag',
};

/** One statement item: icon, activity, date-time and time ago, signed amount, status. */
export function StatementRow({ item, now, names }: { item: StatementItem; now: Date; names: StatementNames }) {
  const locale = useLocale();
  const sign = statementSign(item);
  // A condition's end is not a failed payment: its row is neither struck through nor red.
  const ended = item.statementType === 'finish_bonus';
  const kind = statusKind(item.status);
  const look = ended ? 'ended' : kind;
  return (
    <li className="statement-row" data-testid="statement-row" data-type={item.statementType} data-status={kind}>
      <span className={`statement-icon statement-icon-${item.statementType}`} aria-hidden="true">
        <Icon name={ICONS[item.statementType]} size={22} />
      </span>
      <div className="statement-main">
        <p className="statement-activity" data-testid="statement-activity">
          {activityText(item, names)}
        </p>
        <p className="statement-when">
          <time dateTime={item.createdAt} data-testid="statement-time">
            {formatDateTime(item.createdAt)}
          </time>
          <span className="statement-ago" data-testid="statement-ago">
            {formatTimeAgo(item.createdAt, locale, now)}
          </span>
        </p>
      </div>
      <div className="statement-side">
        <Money
          amount={item.amount}
          sign={sign}
          className={`statement-amount${sign === '+' ? ' amount-in' : sign === '-' ? ' amount-out' : ''}${look === 'failed' ? ' amount-void' : ''}`}
          testId="statement-amount"
        />
        <span className={`status-pill status-${look}`} data-testid="statement-status">
          {/* A condition's end says how it ended in its activity line. */}
          {ended ? i18next.t('statement.status.ended') : statusText(item.status, item.note)}
        </span>
      </div>
    </li>
  );
}
