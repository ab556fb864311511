import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../shared/api';
import { dateTime } from '../../shared/format';
import { Card, ErrorText } from '../../shared/ui';
import { useMutation } from '../../shared/mutation';

interface Approval {
  id: string;
  kind?: string;
  action?: string;
  target?: string;
  amount?: number | string;
  maker?: string;
  createdAt?: string;
}

/**
 * Four eyes: actions above the threshold wait here for a second finance or owner operator (the
 * maker cannot approve their own; the server refuses it). Hidden while the server has no approvals.
 */
export function ApprovalsPanel({ onDone }: { onDone: (text: string) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['approvals'],
    queryFn: () => api<{ approvals: Approval[] } | Approval[]>('GET', '/api/operator/approvals').then((a) => (Array.isArray(a) ? a : a.approvals)),
    refetchInterval: 10_000,
    retry: false,
  });
  const decide = useMutation({
    mutationFn: ({ id, verdict }: { id: string; verdict: 'approve' | 'reject' }) => api('POST', `/api/operator/approvals/${encodeURIComponent(id)}/${verdict}`, { body: {} }),
    onSuccess: (_answer, { verdict }) => {
      onDone(verdict === 'approve' ? t('withdrawals.approved') : t('withdrawals.rejected'));
      void queryClient.invalidateQueries({ queryKey: ['approvals'] });
    },
  });
  if (list.error instanceof ApiError && list.error.status === 404) return null;
  if (!list.data || list.data.length === 0) return null;
  return (
    <Card title={t('withdrawals.approvals')}>
      <ul className="list">
        {list.data.map((a) => (
          <li key={a.id} className="row">
            <span>
              {a.kind ?? a.action} {a.target} {a.amount !== undefined ? String(a.amount) : ''} · {a.maker ? t('withdrawals.maker', { name: a.maker }) : ''} · {dateTime(a.createdAt)}
            </span>
            <button type="button" className="btn btn-primary" onClick={() => decide.mutate({ id: a.id, verdict: 'approve' })}>
              {t('withdrawals.approveSecond')}
            </button>
            <button type="button" className="btn btn-danger" onClick={() => decide.mutate({ id: a.id, verdict: 'reject' })}>
              {t('withdrawals.rejectSecond')}
            </button>
          </li>
        ))}
      </ul>
      <ErrorText error={decide.error} />
    </Card>
  );
}
