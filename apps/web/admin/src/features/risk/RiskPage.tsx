import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { RISK_FLAG_KINDS, type RiskFlagKind } from '@mw/contract/operator/risk';
import { useOperator } from '../../app/useOperator';
import { call } from '../../shared/client';
import { can } from '../../shared/roles';
import { ErrorText, Notice, Page } from '../../shared/ui';
import { RiskFlagCard } from './RiskFlagCard';
import { RiskRules } from './RiskRules';
import { KIND_KEYS } from './riskText';

const STATUSES = ['open', 'resolved', 'dismissed', 'all'] as const;
type Status = (typeof STATUSES)[number];
const PAGE_SIZE = 20;

/** The risk queue (/admin/risk): flags newest first, filtered in the URL (status, signal, member); resolve or dismiss with a note. */
export function RiskPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: operator } = useOperator();
  const [params, setParams] = useSearchParams();
  const status: Status = STATUSES.find((s) => s === params.get('status')) ?? 'open';
  const kind: RiskFlagKind | undefined = RISK_FLAG_KINDS.find((k) => k === params.get('kind'));
  const memberId = params.get('memberId') ?? undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [done, setDone] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ['risk-flags', status, kind, memberId, page],
    queryFn: () => call('riskFlagsList', { query: { status, kind, memberId, page, limit: PAGE_SIZE } }),
    refetchInterval: 30_000,
  });
  const set = (key: string, value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'page') next.delete('page');
    setParams(next);
  };
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE_SIZE));
  return (
    <Page title={t('risk.title')}>
      <p className="muted">{t('risk.intro')}</p>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label className="field">
          <span>{t('risk.status')}</span>
          <select value={status} onChange={(e) => set('status', e.target.value)}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>{t(`risk.statuses.${s}`)}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('risk.kind')}</span>
          <select value={kind ?? ''} onChange={(e) => set('kind', e.target.value || undefined)}>
            <option value="">{t('risk.allKinds')}</option>
            {RISK_FLAG_KINDS.map((k) => (
              <option key={k} value={k}>{t(`risk.kinds.${KIND_KEYS[k]}`)}</option>
            ))}
          </select>
        </label>
        {memberId ? (
          <button type="button" className="btn" onClick={() => set('memberId', undefined)}>{t('common.member')}: {memberId} ✕</button>
        ) : null}
      </form>
      {done ? <Notice>{done}</Notice> : null}
      <ErrorText error={list.error} />
      {list.data?.flags.length === 0 ? <p>{t('risk.none')}</p> : null}
      {list.data?.flags.map((flag) => (
        <RiskFlagCard
          key={flag.id}
          flag={flag}
          canDecide={can(operator?.role, 'risk.decide')}
          onDecided={(text) => {
            setDone(text);
            void queryClient.invalidateQueries({ queryKey: ['risk-flags'] });
          }}
        />
      ))}
      {pages > 1 ? (
        <nav className="row" aria-label={t('common.page', { page, pages })}>
          <button type="button" className="btn" disabled={page <= 1} onClick={() => set('page', String(page - 1))}>{t('common.prev')}</button>
          <span>{t('common.page', { page, pages })}</span>
          <button type="button" className="btn" disabled={page >= pages} onClick={() => set('page', String(page + 1))}>{t('common.next')}</button>
        </nav>
      ) : null}
      <RiskRules canChange={can(operator?.role, 'risk.rules')} />
    </Page>
  );
}
