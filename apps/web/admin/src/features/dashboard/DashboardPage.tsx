import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOperator } from '../../app/useOperator';
import { call } from '../../shared/client';
import { age, minor } from '../../shared/format';
import { can } from '../../shared/roles';
import { Card, ErrorText, Page } from '../../shared/ui';
import { useMutation } from '../../shared/mutation';

interface Queue {
  count: number;
  oldestAt: string | null;
}

export interface Dashboard {
  from: string;
  at: string;
  totals: Array<{ currency: string; deposits: number; withdrawals: number; bonuses: number; net: number }>;
  activeMembers: number;
  queues: { withdrawals: Queue; slips: Queue; unmatched: Queue; chats: Queue & { messages: number } };
  sandbox: boolean;
  providers: Array<{ code: string; mode: 'none' | 'live' | 'down' | 'timeout' | 'error-after-take' }>;
}

interface LedgerReport {
  ok: boolean;
  unbalancedTransactions: unknown[];
  driftedAccounts: unknown[];
  negativeAccounts: unknown[];
  mixedCurrencyTransactions: unknown[];
}

function ledgerProblems(report: LedgerReport): number {
  return report.unbalancedTransactions.length + report.driftedAccounts.length + report.negativeAccounts.length + report.mixedCurrencyTransactions.length || 1;
}

const QUEUES = [
  { key: 'withdrawals', to: '/withdrawals', capability: 'withdrawals' },
  { key: 'slips', to: '/slips', capability: 'slips.read' },
  { key: 'unmatched', to: '/deposits', capability: 'deposits' },
  { key: 'chats', to: '/chat', capability: 'chat' },
] as const;

/** Today's money, the queues waiting for people, the checks and the providers, refreshed every 15 s. */
export function DashboardPage() {
  const { t } = useTranslation();
  const { data: operator } = useOperator();
  const query = useQuery({ queryKey: ['dashboard'], queryFn: () => call('dashboard'), refetchInterval: 15_000 });
  const ledger = useMutation({ mutationFn: () => call('ledgerCheck') });
  const recon = useMutation({ mutationFn: () => call('reconciliation') });
  const data = query.data;
  const finance = can(operator?.role, 'withdrawals');
  return (
    <Page title={t('dashboard.title')}>
      <ErrorText error={query.error} />
      <div className="grid">
        <Card title={t('dashboard.today')} className="span-2">
          {data && data.totals.length === 0 ? <p>{t('dashboard.noMoney')}</p> : null}
          {data?.totals.map((row) => (
            <dl key={row.currency} className="stats" aria-label={row.currency}>
              <div>
                <dt>{t('dashboard.deposits')}</dt>
                <dd>{minor(row.deposits, row.currency)}</dd>
              </div>
              <div>
                <dt>{t('dashboard.withdrawals')}</dt>
                <dd>{minor(row.withdrawals, row.currency)}</dd>
              </div>
              <div>
                <dt>{t('dashboard.bonuses')}</dt>
                <dd>{minor(row.bonuses, row.currency)}</dd>
              </div>
              <div>
                <dt>{t('dashboard.net')}</dt>
                <dd className={row.net < 0 ? 'neg' : undefined}>{minor(row.net, row.currency)}</dd>
              </div>
            </dl>
          ))}
          {data ? (
            <p className="muted">
              {t('dashboard.activeMembers')}: <strong>{data.activeMembers}</strong>
            </p>
          ) : null}
        </Card>
        <Card title={t('dashboard.queues')}>
          <ul className="queues">
            {QUEUES.map((q) => {
              const item = data?.queues[q.key];
              const label = t(`dashboard.queue.${q.key}`);
              return (
                <li key={q.key}>
                  {can(operator?.role, q.capability) ? <Link to={q.to}>{label}</Link> : <span>{label}</span>}
                  <strong className="count" data-testid={`queue-${q.key}`}>{item ? item.count : '…'}</strong>
                  <span className="muted">{item?.oldestAt ? t('dashboard.oldest', { age: age(item.oldestAt) }) : ''}</span>
                </li>
              );
            })}
          </ul>
        </Card>
        {finance ? (
          <Card title={t('dashboard.checks')}>
            <ul className="queues">
              <li>
                <span>{t('dashboard.ledger')}</span>
                <button type="button" className="btn" onClick={() => ledger.mutate()} disabled={ledger.isPending}>
                  {t('dashboard.run')}
                </button>
                <span role="status">{ledger.data ? (ledger.data.ok ? t('dashboard.ok') : t('dashboard.breach', { count: ledgerProblems(ledger.data) })) : ''}</span>
              </li>
              <li>
                <span>{t('dashboard.reconciliation')}</span>
                <button type="button" className="btn" onClick={() => recon.mutate()} disabled={recon.isPending}>
                  {t('dashboard.run')}
                </button>
                <span role="status">{recon.data ? (recon.data.ok === false || (recon.data.breaches?.length ?? 0) > 0 ? t('dashboard.breach', { count: recon.data.breaches?.length ?? 1 }) : t('dashboard.ok')) : ''}</span>
              </li>
            </ul>
            <ErrorText error={ledger.error ?? recon.error} />
          </Card>
        ) : null}
        <Card title={t('dashboard.providers')}>
          <ul className="chips">
            {data?.providers.map((p) => (
              <li key={p.code} className={`chip chip-${p.mode === 'none' || p.mode === 'live' ? 'ok' : 'bad'}`}>
                {p.code}: {t(`dashboard.providerMode.${p.mode}`)}
              </li>
            ))}
          </ul>
        </Card>
      </div>
    </Page>
  );
}
