import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call, type CallAnswer } from '../../shared/client';
import { dateTime } from '../../shared/format';
import { Money } from '../../shared/money';
import { DataTable, type Column } from '../../shared/Table';
import { ErrorText } from '../../shared/ui';

type Answer = CallAnswer<'reconciliationGames'>;
type Day = Answer['days'][number];
type Item = Answer['items'][number];

/**
 * The game providers' part of the reconciliation screen: our wallet ↔ game transfers against each
 * provider's report, per day, provider and currency, and every difference (a transfer in doubt is
 * listed as in progress, not as a breach); providers that did not answer are named.
 */
export function GameRecon({ periodKey, query }: { periodKey: string[]; query: () => { from?: string; to?: string } }) {
  const { t } = useTranslation();
  // The key names the period as chosen (a relative span is computed when it is fetched, as the deposits' part does).
  const report = useQuery({ queryKey: ['reconciliation-games', ...periodKey], queryFn: () => call('reconciliationGames', { query: query() }) });
  const data = report.data;
  const breaches = data?.items.filter((i) => i.kind !== 'PENDING').length ?? 0;
  const dayColumns: Array<Column<Day>> = [
    { key: 'day', label: t('recon.day'), render: (d) => d.day },
    { key: 'code', label: t('recon.games.provider'), render: (d) => d.code },
    { key: 'currency', label: t('recon.currency'), render: (d) => d.currency },
    { key: 'matched', label: t('recon.matched'), numeric: true, render: (d) => d.matched },
    { key: 'matchedAmount', label: t('recon.matchedAmount'), numeric: true, render: (d) => <Money amount={d.matchedAmount} currency={d.currency} /> },
    { key: 'open', label: t('recon.open'), numeric: true, render: (d) => (d.open > 0 ? <strong>{d.open}</strong> : 0) },
    { key: 'openAmount', label: t('recon.openAmount'), numeric: true, render: (d) => <Money amount={d.openAmount} currency={d.currency} /> },
  ];
  const itemColumns: Array<Column<Item>> = [
    { key: 'at', label: t('recon.time'), render: (i) => dateTime(i.at) },
    { key: 'kind', label: t('recon.kind'), render: (i) => <span className={`badge badge-${i.kind === 'PENDING' ? 'pending' : 'failed'}`}>{t(`recon.games.kinds.${i.kind}`)}</span> },
    { key: 'code', label: t('recon.games.provider'), render: (i) => i.code },
    { key: 'reference', label: t('recon.reference'), render: (i) => <span className="mono" data-testid="recon-game-reference">{i.reference}</span> },
    { key: 'amount', label: t('recon.amount'), numeric: true, render: (i) => <Money amount={i.amount} currency={i.currency} /> },
    {
      key: 'theirs',
      label: t('recon.games.theirs'),
      render: (i) =>
        i.theirs ? (
          <span data-testid="recon-game-theirs">
            {t(`recon.games.directions.${i.theirs.direction}`)} <Money amount={i.theirs.amount} currency={i.currency} /> {t('recon.games.player', { username: i.theirs.username })}
          </span>
        ) : (
          t('recon.games.nothing')
        ),
    },
    {
      key: 'link',
      label: t('recon.act'),
      render: (i) =>
        i.memberId ? (
          <Link to={`/members/${encodeURIComponent(i.memberId)}`} aria-label={t('recon.linkLabel', { screen: t('recon.links.member'), reference: i.reference })}>
            {t('recon.links.member')}
          </Link>
        ) : (
          '—'
        ),
    },
  ];
  return (
    <section aria-labelledby="recon-games-title">
      <h2 id="recon-games-title">{t('recon.games.title')}</h2>
      <p className="muted">{t('recon.games.hint')}</p>
      <ErrorText error={report.error} />
      {data ? (
        <>
          <p className={`notice ${data.ok ? 'notice-ok' : 'notice-error'}`} role="status" data-testid="recon-games-status">
            {breaches > 0 ? t('recon.games.breaches', { count: breaches }) : data.unreachable.length > 0 ? t('recon.games.unreachable', { codes: data.unreachable.join(', ') }) : t('recon.games.ok')}
          </p>
          {breaches > 0 && data.unreachable.length > 0 ? <p className="notice notice-error">{t('recon.games.unreachable', { codes: data.unreachable.join(', ') })}</p> : null}
          <p className="muted">{t('recon.games.checked', { count: data.checked.length })}</p>
        </>
      ) : null}
      {data && data.days.length === 0 ? <p className="muted">{t('recon.noDays')}</p> : <DataTable caption={t('recon.games.title')} columns={dayColumns} rows={data?.days} rowKey={(d) => `${d.day}-${d.code}-${d.currency}`} loading={report.isPending} />}
      {data && data.items.length === 0 ? (
        <p className="muted">{t('recon.games.noItems')}</p>
      ) : (
        <DataTable caption={t('recon.items')} columns={itemColumns} rows={data?.items} rowKey={(i) => `${i.kind}-${i.reference}`} loading={report.isPending} />
      )}
    </section>
  );
}
