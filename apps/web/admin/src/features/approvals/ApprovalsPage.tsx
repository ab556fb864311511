import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOperator } from '../../app/useOperator';
import { ClaimBadge } from '../../shared/ClaimBadge';
import { call, type CallAnswer } from '../../shared/client';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { dateTime } from '../../shared/format';
import { Money } from '../../shared/money';
import { useMutation } from '../../shared/mutation';
import { can } from '../../shared/roles';
import { Card, ErrorText, Notice, Page } from '../../shared/ui';
import { FourEyesSettings } from './FourEyesSettings';

type Approval = CallAnswer<'approvalsList'>['approvals'][number];
type Verdict = 'approve' | 'reject';
const KNOWN_ACTIONS = ['withdrawal.approve', 'withdrawal.complete', 'deposit.manual', 'deposit.slip-approve', 'deposit.assign', 'deposit.channel', 'deposit.slip-settings', 'deposit.manual-switch', 'promotion.credit', 'bonus.put', 'spin.coins', 'spin.wheel', 'invite.settings', 'refund.settings', 'approval.four-eyes', 'risk.rules'] as const;
const SETTING_ACTIONS = new Set(['deposit.channel', 'deposit.slip-settings', 'deposit.manual-switch', 'invite.settings', 'refund.settings', 'approval.four-eyes', 'risk.rules']);

interface Change {
  field: string;
  before: unknown;
  after: unknown;
}
/** A settings request's fields, each before and after (the server's payload `changes`). */
function changesOf(payload: unknown): { target: string; changes: Change[] } {
  if (!payload || typeof payload !== 'object') return { target: '', changes: [] };
  const p = payload as { target?: unknown; changes?: unknown };
  const changes = Array.isArray(p.changes) ? p.changes.filter((c): c is Change => !!c && typeof c === 'object' && 'field' in c && typeof c.field === 'string') : [];
  return { target: typeof p.target === 'string' ? p.target : '', changes };
}

/** A settings change in words: "Deposit channel change (channel KBANK-AUTO) account_no: 1234567890 → 9999999999". */
function SettingSentence({ a, what }: { a: Approval; what: string }) {
  const { t } = useTranslation();
  const { target, changes } = changesOf(a.payload);
  const shown = (v: unknown) => (v === null || v === undefined || v === '' ? t('approvals.empty') : typeof v === 'object' ? JSON.stringify(v) : String(v));
  return (
    <span data-testid="approval-sentence">
      {what}
      {a.action === 'deposit.channel' ? ` (${t('approvals.channel', { id: target })})` : ''}
      {a.action === 'refund.settings' && a.amount > 0 ? (
        <>
          {' '}
          ({t('approvals.maximum')} <Money amount={a.amount} currency={a.currency} />)
        </>
      ) : null}
      <ul className="changes">
        {changes.map((c) => (
          <li key={c.field} className="mono">
            {t('approvals.change', { field: c.field, before: shown(c.before), after: shown(c.after), interpolation: { escapeValue: false } })}
          </li>
        ))}
      </ul>
    </span>
  );
}

/** The request in words: "manual credit ฿60,000.00 to Somchai Demo 0898765432". */
function Sentence({ a }: { a: Approval }) {
  const { t } = useTranslation();
  const known = (KNOWN_ACTIONS as readonly string[]).includes(a.action);
  const what = known ? t(`approvals.action.${a.action as (typeof KNOWN_ACTIONS)[number]}`) : t('approvals.action.other');
  if (SETTING_ACTIONS.has(a.action)) return <SettingSentence a={a} what={what} />;
  if (a.action === 'spin.coins') {
    const coins = a.payload && typeof a.payload === 'object' && 'coins' in a.payload && typeof a.payload.coins === 'number' ? a.payload.coins : 0;
    return (
      <span data-testid="approval-sentence">
        {what} {t('approvals.coins', { count: coins })}
        {a.member ? ` ${t('approvals.to')} ${a.member.name} ${a.member.phone}` : ''}
      </span>
    );
  }
  if (a.action === 'spin.wheel') {
    return (
      <span data-testid="approval-sentence">
        {what} ({t('approvals.wheel', { currency: a.currency })}): <Money amount={a.amount} currency={a.currency} />
      </span>
    );
  }
  if (a.action === 'promotion.credit' || a.action === 'bonus.put') {
    const code = a.payload && typeof a.payload === 'object' && 'code' in a.payload && typeof a.payload.code === 'string' ? a.payload.code : '';
    return (
      <span data-testid="approval-sentence">
        {what} {code}: <Money amount={a.amount} currency={a.currency} />
      </span>
    );
  }
  return (
    <span data-testid="approval-sentence">
      {what} <Money amount={a.amount} currency={a.currency} />
      {a.member ? ` ${t('approvals.to')} ${a.member.name} ${a.member.phone} (${a.member.bank} ${a.member.account})` : ''}
      {a.note ? ` — ${t('approvals.reason')}: ${a.note}` : ''}
    </span>
  );
}

/**
 * Four eyes: the requests above the thresholds wait here for a second person. The maker sees
 * "waiting for a second approver" and may cancel; anyone else with the role approves or rejects
 * (a reason) through the confirmation. After a click the screen says what the server did.
 */
export function ApprovalsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: operator } = useOperator();
  const [open, setOpen] = useState<{ approval: Approval; verdict: Verdict } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const list = useQuery({ queryKey: ['approvals'], queryFn: () => call('approvalsList', { query: { status: 'pending' } }), refetchInterval: 10_000 });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['approvals'] });

  const decide = useMutation({
    mutationFn: async ({ approval, verdict, reason }: { approval: Approval; verdict: Verdict; reason: string }): Promise<string> => {
      if (verdict === 'reject') {
        await call('approvalReject', { params: { id: approval.id }, body: { note: reason } });
        return t('approvals.doneRejected');
      }
      const answer = await call('approvalApprove', { params: { id: approval.id } });
      const body = answer.result.body;
      const reference = body && typeof body === 'object' && 'reference' in body && typeof body.reference === 'string' ? body.reference : null;
      if (answer.result.status >= 400) return t('approvals.doneRefused', { status: answer.result.status });
      if (answer.result.status === 202) return t('approvals.doneStillWaiting');
      return reference ? t('approvals.doneApprovedRef', { reference }) : t('approvals.doneApproved');
    },
    onSuccess: (text) => {
      setDone(text);
      setOpen(null);
      void refresh();
    },
  });
  const cancel = useMutation({
    mutationFn: (approval: Approval) => call('approvalCancel', { params: { id: approval.id }, body: {} }),
    onSuccess: () => {
      setDone(t('approvals.doneCancelled'));
      void refresh();
    },
  });

  const approvals = list.data?.approvals ?? [];
  return (
    <Page title={t('nav.approvals')}>
      {done ? <Notice>{done}</Notice> : null}
      <ErrorText error={list.error ?? decide.error ?? cancel.error} />
      <Card>
        {approvals.length === 0 && list.data ? <p>{t('approvals.none')}</p> : null}
        <ul className="list">
          {approvals.map((a) => {
            const mine = operator?.username === a.maker;
            return (
              <li key={a.id} className="row" data-testid={`approval-${a.id}`}>
                <div>
                  <Sentence a={a} /> <ClaimBadge kind="approval" id={a.id} />
                  <div className="muted">
                    {t('approvals.maker', { name: a.maker })} · {dateTime(a.createdAt)}
                    {a.memberId ? (
                      <>
                        {' · '}
                        <Link to={`/members/${encodeURIComponent(a.memberId)}`}>{t('approvals.openMember')}</Link>
                      </>
                    ) : null}
                    {a.action.startsWith('withdrawal.') ? (
                      <>
                        {' · '}
                        <Link to="/withdrawals">{t('approvals.openRecord')}</Link>
                      </>
                    ) : null}
                  </div>
                </div>
                {mine ? (
                  <span>
                    <span className="badge">{t('approvals.waiting')}</span>{' '}
                    <button type="button" className="btn" onClick={() => cancel.mutate(a)}>
                      {t('approvals.cancel')}
                    </button>
                  </span>
                ) : (
                  <span>
                    <button type="button" className="btn btn-primary" onClick={() => setOpen({ approval: a, verdict: 'approve' })}>
                      {t('approvals.approve')}
                    </button>{' '}
                    <button type="button" className="btn btn-danger" onClick={() => setOpen({ approval: a, verdict: 'reject' })}>
                      {t('approvals.reject')}
                    </button>
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      </Card>
      {can(operator?.role, 'fourEyesPut') ? <FourEyesSettings /> : null}
      {open ? (
        <ConfirmDialog
          claim={{ kind: 'approval', id: open.approval.id }}
          title={open.verdict === 'approve' ? t('approvals.confirmApprove') : t('approvals.confirmReject')}
          member={open.approval.member}
          amount={SETTING_ACTIONS.has(open.approval.action) ? undefined : { value: open.approval.amount, currency: open.approval.currency }}
          effect={<Sentence a={open.approval} />}
          reason={open.verdict === 'reject' ? 'required' : 'optional'}
          confirmLabel={open.verdict === 'approve' ? t('approvals.approve') : t('approvals.reject')}
          danger={open.verdict === 'reject'}
          busy={decide.isPending}
          onConfirm={(reason) => decide.mutate({ approval: open.approval, verdict: open.verdict, reason })}
          onCancel={() => setOpen(null)}
        />
      ) : null}
    </Page>
  );
}
