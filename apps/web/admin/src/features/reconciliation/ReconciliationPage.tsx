import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { call, type CallAnswer } from '../../shared/client';
import { dateTime } from '../../shared/format';
import { Money } from '../../shared/money';
import { DataTable, type Column } from '../../shared/Table';
import { ErrorText, Page } from '../../shared/ui';
import { dayStart } from '../audit/auditText';
import { GameRecon } from './GameRecon';

type Answer = CallAnswer<'reconciliation'>;
type Day = Answer['days'][number];
type Item = Answer['items'][number];
type Period = 'last24h' | 'last7d' | 'last30d' | 'days';
const PERIODS: readonly Period[] = ['last24h', 'last7d', 'last30d', 'days'];
const SPAN_DAYS: Record<Exclude<Period, 'days'>, number> = { last24h: 1, last7d: 7, last30d: 30 };
const BREACH_KINDS = [
  'CREDITED_MORE_THAN_ONCE',
  'NO_OUTSIDE_RECORD',
  'AMOUNT_MISMATCH',
  'CURRENCY_MISMATCH',
  'COMPLETED_WITHOUT_PAYOUT',
  'PAYOUT_NOT_COMPLETED',
  'ACCOUNT_MISMATCH',
  'PAID_TWICE',
  'UNKNOWN_PAYOUT',
  'PAID_BUT_RETURNED',
] as const;
type BreachKind = (typeof BREACH_KINDS)[number];

/** Where an item is acted on: the back office's screen for it. */
export function linkPath(link: Item['link']): string {
  if (link.screen === 'member') return link.id ? `/members/${encodeURIComponent(link.id)}` : '/members';
  return `/${link.screen}`;
}

/** A Bangkok day (yyyy-mm-dd) for a date field, `days` before now. */
function bangkokDay(daysAgo = 0): string {
  return new Date(Date.now() + 7 * 3_600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

/** The period asked of the server: relative spans end now; chosen days are whole Bangkok days. */
function periodQuery(period: Period, from: string, to: string): { from?: string; to?: string } {
  if (period === 'days') return { from: dayStart(from), to: dayStart(to, 1) };
  if (period === 'last24h') return {};
  const end = new Date();
  return { from: new Date(end.getTime() - SPAN_DAYS[period] * 86_400_000).toISOString(), to: end.toISOString() };
}

/**
 * Reconciliation (finance, owner): deposits and payouts matched one to one with the outside
 * systems' records, per day and system with counts and sums in each currency, and every open item
 * — money with no member, money not credited, claims in progress, deposits held by a member's
 * limits, breaches, payouts with the bank — with its reference, amount and a link to the screen
 * that acts on it. The period (last 24 hours by default) is kept in the URL.
 */
export function ReconciliationPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const asked = search.get('period');
  const period: Period = PERIODS.includes(asked as Period) ? (asked as Period) : 'last24h';
  const from = search.get('from') ?? bangkokDay(6);
  const to = search.get('to') ?? bangkokDay();
  const set = (patch: Record<string, string>) => setSearch((current) => ({ ...Object.fromEntries(current), ...patch }), { replace: true });
  const report = useQuery({
    queryKey: ['reconciliation', period, period === 'days' ? from : '', period === 'days' ? to : ''],
    queryFn: () => call('reconciliation', { query: periodQuery(period, from, to) }),
  });
  const data = report.data;
  const systemName = (system: Day['system']) => t(`recon.systems.${system}`);
  const detailOf = (item: Item) => {
    if (item.kind !== 'breach' || !item.detail) return '—';
    return (BREACH_KINDS as readonly string[]).includes(item.detail) ? t(`recon.breachKinds.${item.detail as BreachKind}`) : t('recon.breachKinds.other');
  };
  const breachCount = data?.items.filter((i) => i.kind === 'breach').length ?? 0;

  const dayColumns: Array<Column<Day>> = [
    { key: 'day', label: t('recon.day'), render: (d) => d.day },
    { key: 'system', label: t('recon.system'), render: (d) => systemName(d.system) },
    { key: 'currency', label: t('recon.currency'), render: (d) => d.currency },
    { key: 'matched', label: t('recon.matched'), numeric: true, render: (d) => d.matched },
    { key: 'matchedAmount', label: t('recon.matchedAmount'), numeric: true, render: (d) => <Money amount={d.matchedAmount} currency={d.currency} /> },
    { key: 'open', label: t('recon.open'), numeric: true, render: (d) => (d.open > 0 ? <strong>{d.open}</strong> : 0) },
    { key: 'openAmount', label: t('recon.openAmount'), numeric: true, render: (d) => <Money amount={d.openAmount} currency={d.currency} /> },
  ];
  const itemColumns: Array<Column<Item>> = [
    { key: 'at', label: t('recon.time'), render: (i) => dateTime(i.at) },
    { key: 'kind', label: t('recon.kind'), render: (i) => <span className={`badge badge-${i.kind === 'breach' ? 'failed' : 'pending'}`}>{t(`recon.kinds.${i.kind}`)}</span> },
    { key: 'system', label: t('recon.system'), render: (i) => systemName(i.system) },
    { key: 'reference', label: t('recon.reference'), render: (i) => <span className="mono" data-testid="recon-reference">{i.reference}</span> },
    { key: 'amount', label: t('recon.amount'), numeric: true, render: (i) => <Money amount={i.amount} currency={i.currency} /> },
    { key: 'detail', label: t('recon.detail'), render: detailOf },
    {
      key: 'link',
      label: t('recon.act'),
      render: (i) => (
        <Link to={linkPath(i.link)} aria-label={t('recon.linkLabel', { screen: t(`recon.links.${i.link.screen}`), reference: i.reference })}>
          {t(`recon.links.${i.link.screen}`)}
        </Link>
      ),
    },
  ];

  return (
    <Page title={t('recon.title')}>
      <p className="muted">{t('recon.hint', { zone: data?.timeZone ?? 'Asia/Bangkok' })}</p>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label className="field">
          <span>{t('recon.period')}</span>
          <select value={period} onChange={(e) => set({ period: e.target.value })}>
            {PERIODS.map((p) => (
              <option key={p} value={p}>
                {t(`recon.periods.${p}`)}
              </option>
            ))}
          </select>
        </label>
        {period === 'days' ? (
          <>
            <label className="field">
              <span>{t('recon.from')}</span>
              <input type="date" value={from} max={to} onChange={(e) => e.target.value && set({ from: e.target.value })} />
            </label>
            <label className="field">
              <span>{t('recon.to')}</span>
              <input type="date" value={to} min={from} onChange={(e) => e.target.value && set({ to: e.target.value })} />
            </label>
          </>
        ) : null}
      </form>
      <ErrorText error={report.error} />
      {data ? (
        <>
          <p className="muted">{t('recon.showing', { from: dateTime(data.from), to: dateTime(data.to) })}</p>
          <p className={`notice ${data.ok ? 'notice-ok' : 'notice-error'}`} role="status" data-testid="recon-status">
            {data.ok ? t('recon.ok') : t('recon.breaches', { count: breachCount })}
          </p>
        </>
      ) : null}
      <h2>{t('recon.summary')}</h2>
      {data && data.days.length === 0 ? <p className="muted">{t('recon.noDays')}</p> : <DataTable caption={t('recon.summary')} columns={dayColumns} rows={data?.days} rowKey={(d) => `${d.day}-${d.system}-${d.currency}`} loading={report.isPending} />}
      <h2>{t('recon.items')}</h2>
      {data && data.items.length === 0 ? (
        <p className="muted">{t('recon.noItems')}</p>
      ) : (
        <DataTable caption={t('recon.items')} columns={itemColumns} rows={data?.items} rowKey={(i) => `${i.kind}-${i.system}-${i.reference}`} loading={report.isPending} />
      )}
      <GameRecon periodKey={[period, period === 'days' ? from : '', period === 'days' ? to : '']} query={() => periodQuery(period, from, to)} />
    </Page>
  );
}
