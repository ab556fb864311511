import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE } from '@mw/contract/constants';
import type { Slip } from '@mw/contract/wallet';
import { errorMessage } from '../../shared/api/errorMessage';
import { formatDateTime } from '../../shared/format/date';
import { Icon } from '../../shared/ui/Icon';
import { Modal } from '../../shared/ui/Modal';
import { Money } from '../../shared/ui/Money';
import { Pagination } from '../../shared/ui/Pagination';
import { PageSpinner, Spinner } from '../../shared/ui/Spinner';
import { toast } from '../../shared/ui/toast';
import { fetchSlipUrl, useSlips } from './statementApi';
import { statusKind, statusText } from './statementText';

/** Opens the slip image in a new window: the window opens at the click, its address follows. */
function ViewSlip({ slip }: { slip: Slip }) {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  const view = () => {
    const opened = window.open('about:blank', '_blank');
    setPending(true);
    fetchSlipUrl(slip.reference)
      .then((url) => {
        if (opened) {
          opened.opener = null;
          opened.location.href = url;
        } else {
          window.location.assign(url);
        }
      })
      .catch((error: unknown) => {
        opened?.close();
        toast.error(errorMessage(error));
      })
      .finally(() => setPending(false));
  };
  return (
    <button type="button" className="btn btn-ghost slip-view" onClick={view} disabled={pending} data-testid="slip-view">
      {pending ? <Spinner size={16} /> : <Icon name="image" size={18} />}
      {t('slips.view')}
    </button>
  );
}

/** Slip history (spec section 2): time, amount (a dash until read), status with reason, view link. */
export function SlipModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const slips = useSlips(page);
  const rows = slips.data?.slips ?? [];

  return (
    <Modal open onClose={onClose} title={t('slips.title')} testId="slip-modal" size="lg">
      <div className="slips">
        <div className="slips-toolbar">
          <span className="muted">{t('slips.subtitle')}</span>
          <button type="button" className="btn btn-ghost" onClick={() => void slips.refetch()} disabled={slips.isFetching} data-testid="slips-refresh">
            {slips.isFetching ? <Spinner size={16} /> : <Icon name="refresh" size={18} />}
            {t('slips.refresh')}
          </button>
        </div>
        {slips.isPending ? (
          <PageSpinner />
        ) : slips.isError && !slips.data ? (
          <p className="muted">{errorMessage(slips.error)}</p>
        ) : rows.length === 0 ? (
          <div className="empty-state" data-testid="slips-empty">
            <span className="empty-state-art" aria-hidden="true">
              <Icon name="receipt" size={32} />
            </span>
            <p className="muted">{t('slips.empty')}</p>
          </div>
        ) : (
          <div className="slips-table-wrap">
            <table className="slips-table" data-testid="slips-table">
              <thead>
                <tr>
                  <th scope="col">{t('slips.time')}</th>
                  <th scope="col" className="num">
                    {t('slips.amount')}
                  </th>
                  <th scope="col">{t('slips.status')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('slips.view')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((slip) => (
                  <tr key={slip._id} data-testid="slip-row">
                    <td className="slip-time">{formatDateTime(slip.createdAt)}</td>
                    <td className="num" data-testid="slip-amount">
                      {slip.amount > 0 ? <Money amount={slip.amount} /> : '–'}
                    </td>
                    <td>
                      <span className={`status-pill status-${statusKind(slip.status)}`} data-testid="slip-status">
                        {statusText(slip.status, slip.note)}
                      </span>
                    </td>
                    <td>
                      <ViewSlip slip={slip} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination page={page} total={slips.data?.total ?? 0} pageSize={PAGE_SIZE} onChange={setPage} testId="slips-pagination" />
      </div>
    </Modal>
  );
}
