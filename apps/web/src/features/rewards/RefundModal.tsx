import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { refusalMessage } from '../../shared/api/refusalMessage';
import { useIdempotencyKey } from '../../shared/api/useIdempotencyKey';
import { formatDateTime } from '../../shared/format/date';
import { Modal } from '../../shared/ui/Modal';
import { Money } from '../../shared/ui/Money';
import { SafeHtml } from '../../shared/ui/SafeHtml';
import { Spinner } from '../../shared/ui/Spinner';
import { toast } from '../../shared/ui/toast';
import { RewardTable } from './RewardTable';
import { useAddRefundToWallet, useReceiveRefund, useRefundCheck, useRefundRows } from './rewardsApi';
import { rewardsNs } from './locales';
import './rewards.css';

/**
 * The refund modal (spec sections 3, 4, 8): the check's info, the amount to receive (receive is
 * disabled while a bonus is active; none: the not-found message), what was received and can be
 * added to the wallet (a confirmation shows the success and fail percentages), and the paged log.
 * After a receive attempt the check reloads; adding closes the modal with `true` (the home reloads).
 */
export function RefundModal({ onClose }: { onClose: (changed: boolean) => void }) {
  const { t: text } = useTranslation(rewardsNs);
  const { t } = useTranslation();
  const check = useRefundCheck();
  const [page, setPage] = useState(1);
  const rows = useRefundRows(page);
  const receive = useReceiveRefund();
  const add = useAddRefundToWallet();
  const receiveKeys = useIdempotencyKey();
  const addKeys = useIdempotencyKey();
  const [confirming, setConfirming] = useState(false);
  const data = check.data;

  const onReceive = () =>
    receive.mutate(receiveKeys.keyFor('refund-receive'), {
      onSuccess: (answer) => {
        receiveKeys.done();
        toast.success(t(`errors.${answer.message}` as 'errors.REFUND_SUCCESS', { defaultValue: answer.message }));
        // Received: the next step (into the wallet, with its condition) asks at once — one tap fewer.
        setConfirming(true);
      },
      onError: (error) => {
        receiveKeys.failed(error);
        toast.error(refusalMessage(error));
      },
    });
  const onAdd = () =>
    add.mutate(addKeys.keyFor('refund-add'), {
      onSuccess: () => {
        addKeys.done();
        setConfirming(false);
        toast.success(text('added'));
        onClose(true);
      },
      onError: (error) => {
        addKeys.failed(error);
        setConfirming(false);
        toast.error(refusalMessage(error));
      },
    });

  return (
    <>
      <Modal open title={text('refundTitle')} onClose={() => onClose(false)} testId="refund-modal" focusField={false}>
        {data?.info && <SafeHtml html={data.info} className="reward-info" testId="refund-info" />}
        {check.isPending ? (
          <div className="reward-amount-skeleton" aria-hidden="true" />
        ) : data ? (
          <div className="refund-boxes">
            <div className="refund-box" data-testid="refund-available">
              {data.result ? (
                <>
                  <span className="muted">{text('refundAvailable')}</span>
                  <Money amount={data.refundAmount} className="refund-amount" />
                  {data.bonus && <p className="refund-note" role="note">{text('refundBonusActive')}</p>}
                  <button type="button" className="btn btn-primary btn-block" onClick={onReceive} disabled={data.bonus || receive.isPending} data-testid="refund-receive">
                    {receive.isPending && <Spinner />}
                    {text('receive')}
                  </button>
                </>
              ) : (
                <p className="muted" data-testid="refund-none">{text('refundNone')}</p>
              )}
            </div>
            {data.received > 0 && (
              <div className="refund-box" data-testid="refund-received">
                <span className="muted">{text('refundReceived')}</span>
                <Money amount={data.received} className="refund-amount" />
                <button type="button" className="btn btn-primary btn-block" onClick={() => setConfirming(true)} disabled={add.isPending} data-testid="refund-add-wallet">
                  {text('addWallet')}
                </button>
              </div>
            )}
          </div>
        ) : null}
        <h3 className="reward-subtitle">{text('refundHistory')}</h3>
        <RewardTable
          rows={rows.data?.refunds ?? []}
          total={rows.data?.total ?? 0}
          page={page}
          onPage={setPage}
          loading={rows.isPending}
          empty={text('refundEmpty')}
          testId="refund-table"
          columns={[
            { title: text('amount'), cell: (r) => <Money amount={r.refundAmount} />, numeric: true },
            { title: text('date'), cell: (r) => formatDateTime(r.createdAt) },
          ]}
        />
      </Modal>
      {confirming && data && (
        <RefundAddConfirm
          received={data.received}
          success={data.refundSuccess}
          fail={data.refundFail}
          pending={add.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={onAdd}
        />
      )}
    </>
  );
}

interface ConfirmProps {
  received: number;
  success: number;
  fail: number;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/** The confirmation before adding the received refund to the wallet: the amount and the success and fail percentages. */
function RefundAddConfirm({ received, success, fail, pending, onCancel, onConfirm }: ConfirmProps) {
  const { t: text } = useTranslation(rewardsNs);
  return (
    <Modal
      open
      size="sm"
      title={text('addWalletTitle')}
      onClose={onCancel}
      testId="refund-add-confirm"
      focusField={false}
      footer={
        <div className="btn-row">
          <button type="button" className="btn btn-secondary" onClick={onCancel}>
            {text('cancel')}
          </button>
          <button type="button" className="btn btn-primary" onClick={onConfirm} disabled={pending} data-testid="refund-add-confirm-button">
            {pending && <Spinner />}
            {text('addWallet')}
          </button>
        </div>
      }
    >
      <div className="invite-confirm">
        <Money amount={received} className="refund-amount" />
        <dl className="invite-confirm-rates">
          <div>
            <dt>{text('successRate')}</dt>
            <dd>{success}%</dd>
          </div>
          <div>
            <dt>{text('failRate')}</dt>
            <dd>{fail}%</dd>
          </div>
        </dl>
        <p className="muted">{text('addWalletText', { success, fail })}</p>
      </div>
    </Modal>
  );
}
