import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from '../../shared/router';
import { PAGE_SIZE } from '@mw/contract/constants';
import { errorMessage } from '../../shared/api/errorMessage';
import { Icon } from '../../shared/ui/Icon';
import { Pagination } from '../../shared/ui/Pagination';
import { PageSpinner } from '../../shared/ui/Spinner';
import { useStatements } from './statementApi';
import { StatementRow } from './StatementRow';
import { useStatementNames } from './statementNames';
import './statement.css';

const SlipModal = lazy(() => import('./SlipModal').then((m) => ({ default: m.SlipModal })));

function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** Statement (spec section 2): the member's deposits, withdrawals, transfers and bonuses, 10 a page. */
export function StatementPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const page = pageFrom(params.get('page'));
  const statements = useStatements(page);
  const names = useStatementNames();
  const [slipsOpen, setSlipsOpen] = useState(false);
  // "Time ago" counts from when this page of the list arrived.
  const now = new Date(statements.dataUpdatedAt);

  const goTo = (next: number) => {
    setParams(next > 1 ? { page: String(next) } : {});
    window.scrollTo({ top: 0 });
  };

  const items = statements.data?.statements ?? [];
  return (
    <section className="page statement-page" data-testid="statement-page">
      <div className="statement-head">
        <h1 className="page-title">{t('statement.title')}</h1>
        <button type="button" className="btn btn-secondary statement-slips-button" onClick={() => setSlipsOpen(true)} data-testid="open-slips">
          <Icon name="receipt" size={20} />
          {t('slips.open')}
        </button>
      </div>

      {statements.isPending ? (
        <PageSpinner />
      ) : statements.isError && !statements.data ? (
        <div className="card statement-error" role="alert">
          <p className="muted">{errorMessage(statements.error)}</p>
          <button type="button" className="btn btn-secondary" onClick={() => void statements.refetch()}>
            {t('common.retry')}
          </button>
        </div>
      ) : items.length === 0 ? (
        <div className="card empty-state" data-testid="statement-empty">
          <span className="empty-state-art" aria-hidden="true">
            <Icon name="statement" size={36} />
          </span>
          <h2 className="empty-state-title">{t('statement.emptyTitle')}</h2>
          <p className="muted">{t('statement.emptyText')}</p>
        </div>
      ) : (
        <ul className="statement-list" data-testid="statement-list" aria-busy={statements.isPlaceholderData}>
          {items.map((item) => (
            <StatementRow key={item._id} item={item} now={now} names={names} />
          ))}
        </ul>
      )}

      <Pagination page={page} total={statements.data?.total ?? 0} pageSize={PAGE_SIZE} onChange={goTo} testId="statement-pagination" />

      {slipsOpen && (
        <Suspense fallback={null}>
          <SlipModal onClose={() => setSlipsOpen(false)} />
        </Suspense>
      )}
    </section>
  );
}
