import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { REPORT_NAMES, type ReportColumn, type ReportName } from '@mw/contract/operator/reports';
import type { OperatorCallName } from '@mw/contract/operator/index';
import { useOperator } from '../../app/useOperator';
import { call, download } from '../../shared/client';
import { Money } from '../../shared/money';
import { can } from '../../shared/roles';
import { ErrorText, Page } from '../../shared/ui';

const ReportChart = lazy(() => import('./ReportChart'));

const CALLS: Record<ReportName, OperatorCallName & `report${string}`> = {
  cash: 'reportCash',
  'bonus-cost': 'reportBonusCost',
  ggr: 'reportGgr',
  members: 'reportMembers',
  'top-depositors': 'reportTopDepositors',
};

/** The figures each report's chart draws (the table shows every column). */
const CHARTED: Record<ReportName, string[]> = {
  cash: ['deposits', 'withdrawalsPaid', 'net'],
  'bonus-cost': ['bonus', 'promotion', 'wheel', 'invite', 'refund'],
  ggr: ['stakes', 'wins', 'ggr'],
  members: ['newMembers', 'firstDepositors', 'active'],
  'top-depositors': ['deposits', 'withdrawalsPaid'],
};

/** Today in Bangkok / Vientiane (UTC+7), YYYY-MM-DD, `days` earlier. */
function localDay(days = 0): string {
  return new Date(Date.now() + 7 * 3_600_000 - days * 86_400_000).toISOString().slice(0, 10);
}

const valueAt = (row: Record<string, unknown>, key: string): unknown => key.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), row);

/**
 * Reports (finance, owner; marketing sees bonus cost): a report, a date range, a grouping and a
 * currency in the URL; a chart of the main figures, the table of every figure per period with the
 * totals, and the same table as CSV or XLSX from the server.
 */
export function ReportsPage() {
  const { t } = useTranslation();
  const { data: operator } = useOperator();
  const [search, setSearch] = useSearchParams();
  const visible = REPORT_NAMES.filter((name) => can(operator?.role, CALLS[name]));
  const asked = search.get('report') as ReportName | null;
  const name: ReportName = asked && visible.includes(asked) ? asked : (visible[0] ?? 'bonus-cost');
  const query = {
    from: search.get('from') ?? localDay(29),
    to: search.get('to') ?? localDay(),
    granularity: search.get('granularity') ?? 'day',
    currency: search.get('currency') ?? undefined,
    tag: search.get('tag') || undefined,
  };
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(key, value);
    else next.delete(key);
    setSearch(next, { replace: true });
  };
  const report = useQuery({ queryKey: ['report', name, query], queryFn: () => call(CALLS[name], { query }), enabled: Boolean(operator) });
  const [downloading, setDownloading] = useState<unknown>(null);
  const data = report.data;
  const columns = (data?.columns ?? []) as ReportColumn[];
  const periodic = name !== 'top-depositors';

  const label = (c: ReportColumn): string => {
    const [head, group, figure] = c.key.split('.');
    if (head === 'channels' && group) return group.startsWith('qr:') ? t('reports.channels.qr', { gateway: group.slice(3) }) : t(`reports.channels.${group}` as 'reports.channels.bank', { defaultValue: group });
    if (head === 'providers' && group && figure) return t('reports.provider', { provider: group, figure: t(`reports.columns.${figure}` as 'reports.columns.ggr') });
    return t(`reports.columns.${c.key}` as 'reports.columns.deposits', { defaultValue: c.key });
  };

  const chart = useMemo(() => {
    if (!data) return null;
    const rows = data.rows as Array<Record<string, unknown>>;
    const labels = rows.map((r) => String(periodic ? r.period : r.name || r.username));
    const series = CHARTED[name].map((key) => ({ label: label({ key, kind: 'amount' }), values: rows.map((r) => Number(valueAt(r, key) ?? 0)) }));
    return { labels, series };
    // label depends on t only
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, name, periodic]);

  const exportAs = (format: 'csv' | 'xlsx') => {
    setDownloading(null);
    download(CALLS[name], { query: { ...query, format } }, `report-${name}.${format}`).catch((error: unknown) => setDownloading(error));
  };

  return (
    <Page
      title={t('reports.title')}
      actions={
        <>
          <button type="button" className="btn" onClick={() => exportAs('csv')} data-testid="report-csv">{t('reports.downloadCsv')}</button>
          <button type="button" className="btn" onClick={() => exportAs('xlsx')} data-testid="report-xlsx">{t('reports.downloadXlsx')}</button>
        </>
      }
    >
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label className="field">
          <span>{t('reports.report')}</span>
          <select value={name} onChange={(e) => set('report', e.target.value)} data-testid="report-name">
            {visible.map((n) => <option key={n} value={n}>{t(`reports.names.${n}`)}</option>)}
          </select>
        </label>
        <label className="field">
          <span>{t('reports.from')}</span>
          <input type="date" value={query.from} onChange={(e) => set('from', e.target.value)} />
        </label>
        <label className="field">
          <span>{t('reports.to')}</span>
          <input type="date" value={query.to} onChange={(e) => set('to', e.target.value)} />
        </label>
        {periodic ? (
          <label className="field">
            <span>{t('reports.granularity')}</span>
            <select value={query.granularity} onChange={(e) => set('granularity', e.target.value)}>
              {(['day', 'week', 'month'] as const).map((g) => <option key={g} value={g}>{t(`reports.granularities.${g}`)}</option>)}
            </select>
          </label>
        ) : null}
        <label className="field">
          <span>{t('reports.currency')}</span>
          <select value={query.currency ?? data?.currency ?? 'THB'} onChange={(e) => set('currency', e.target.value)}>
            <option value="THB">THB</option>
            <option value="LAK">LAK</option>
          </select>
        </label>
        <TagFilter current={query.tag ?? ''} onApply={(value) => set('tag', value)} />
      </form>
      <ErrorText error={report.error ?? downloading} />
      {data ? <p className="muted">{t('reports.timeZone', { zone: data.timeZone, currency: data.currency })}{data.tag ? ` ${t('reports.onlyTag', { tag: data.tag })}` : ''}</p> : null}
      {chart && chart.labels.length > 0 ? (
        <Suspense fallback={null}>
          <ReportChart labels={chart.labels} series={chart.series} title={t('reports.chart', { report: t(`reports.names.${name}`) })} />
        </Suspense>
      ) : null}
      {data ? (
        <ReportTable
          caption={t(`reports.names.${name}`)}
          columns={columns}
          rows={data.rows as Array<Record<string, unknown>>}
          totals={data.totals as Record<string, unknown>}
          currency={data.currency}
          periodic={periodic}
          label={label}
        />
      ) : null}
    </Page>
  );
}

/** The tag filter: applied when the field is left or Enter is pressed, not on each key. */
function TagFilter({ current, onApply }: { current: string; onApply: (tag: string) => void }) {
  const { t } = useTranslation();
  const [tag, setTag] = useState(current);
  const applyTag = () => {
    const value = tag.trim().toLowerCase();
    if (value !== current) onApply(value);
  };
  return (
    <label className="field">
      <span>{t('reports.tag')}</span>
      <input
        type="text"
        value={tag}
        maxLength={24}
        placeholder={t('members.anyTag')}
        onChange={(e) => setTag(e.target.value)}
        onBlur={applyTag}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            applyTag();
          }
        }}
      />
    </label>
  );
}

interface TableProps {
  caption: string;
  columns: ReportColumn[];
  rows: Array<Record<string, unknown>>;
  totals: Record<string, unknown>;
  currency: string;
  periodic: boolean;
  label: (c: ReportColumn) => string;
}

/** The report's table: a row per period (or member) with every figure, and the totals. */
function ReportTable({ caption, columns, rows, totals, currency, periodic, label }: TableProps) {
  const { t } = useTranslation();
  const cell = (c: ReportColumn, value: unknown) => {
    if (c.kind === 'amount') return <Money amount={typeof value === 'number' ? value : 0} currency={currency} />;
    if (c.kind === 'percent') return `${typeof value === 'number' ? value.toFixed(2) : '0.00'} %`;
    return String(value ?? '');
  };
  return (
    <div className="table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table className="table" data-testid="report-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {periodic ? <th scope="col">{t('reports.period')}</th> : null}
            {columns.map((c) => <th key={c.key} scope="col">{label(c)}</th>)}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={String(row.period ?? row.memberId ?? i)}>
              {periodic ? <th scope="row">{String(row.period)}</th> : null}
              {columns.map((c) => <td key={c.key} className={c.kind === 'text' ? undefined : 'num'}>{cell(c, valueAt(row, c.key))}</td>)}
            </tr>
          ))}
          {rows.length === 0 ? <tr><td colSpan={columns.length + 1}>{t('reports.empty')}</td></tr> : null}
        </tbody>
        <tfoot>
          <tr>
            {periodic ? <th scope="row">{t('reports.total')}</th> : null}
            {columns.map((c, i) => <td key={c.key} className="num">{!periodic && i === 0 ? t('reports.total') : c.kind === 'text' || c.key === 'rank' ? '' : cell(c, valueAt(totals, c.key))}</td>)}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
