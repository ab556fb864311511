import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Conversation } from '@mw/contract/chat';
import type { StatementItem } from '@mw/contract/statement';
import { useOperator } from '../../app/useOperator';
import { call } from '../../shared/client';
import { allPages, downloadCsv, toCsv } from '../../shared/csv';
import { dateTime, money } from '../../shared/format';
import { can } from '../../shared/roles';
import { DataTable, type Column } from '../../shared/Table';
import { Card, ErrorText, Notice, Page, StatusBadge } from '../../shared/ui';
import { messageText } from '../chat/messageText';
import type { MemberRow } from './MemberPicker';
import { useMutation } from '../../shared/mutation';
import { MemberAudit } from '../audit/MemberAudit';
import { MemberRiskFlags } from '../risk/MemberRiskFlags';
import { MemberResponsible } from './MemberResponsible';
import { MemberTags } from './MemberTags';

interface MemberView {
  member: MemberRow;
  wallet: { amount: number };
  coin: number;
  games: Array<{ code: string; name: string; isActive: boolean; amount: number }>;
  bonus: { code?: string; progress: { turnover: number; target: number } | null } | null;
  invite: { amount: number; success: number; fail: number; inviter: { id: string; username: string; name: string } | null; invited: Array<{ id: string; username: string; name: string; createdAt: string }> };
  notes: Array<{ id: string; text: string; author: string; at: string }>;
}

const PAGE_SIZE = 20;

/** One member: wallet and game balances, bonus, invites, statement, slips, chat, responsible play, tags, risk flags, audit, notes; lock / unlock. */
export function MemberPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const { data: operator } = useOperator();
  const view = useQuery({ queryKey: ['member', id], queryFn: (): Promise<MemberView> => call('memberGet', { params: { id } }) });
  const [page, setPage] = useState(1);
  const statement = useQuery({ queryKey: ['member', id, 'statement', page], queryFn: (): Promise<{ total: number; statements: StatementItem[] }> => call('memberStatement', { params: { id }, query: { page, limit: PAGE_SIZE } }) });
  const slips = useQuery({ queryKey: ['member', id, 'slips'], queryFn: (): Promise<{ total: number; slips: Array<{ reference: string; amount: number | null; status: string; createdAt: string; note?: string | null }> }> => call('memberSlips', { params: { id }, query: { page: 1, limit: 20 } }) });
  const chat = useQuery({ queryKey: ['member', id, 'chat'], queryFn: (): Promise<{ threadId: string | null; messages: Conversation[] }> => call('memberChat', { params: { id }, query: { limit: 30 } }) });
  const [note, setNote] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['member', id] });
  const lock = useMutation({
    mutationFn: (locked: boolean): Promise<MemberRow> => call('memberLock', { params: { id }, body: { locked } }),
    onSuccess: (row) => {
      setDone(row.status === 'inactive' ? t('members.locked') : t('members.unlocked'));
      void refresh();
    },
  });
  const addNote = useMutation({
    mutationFn: () => call('memberNoteAdd', { params: { id }, body: { text: note.trim() } }),
    onSuccess: () => {
      setNote('');
      void refresh();
    },
  });
  const m = view.data?.member;
  const manage = can(operator?.role, 'members.manage');
  const columns: Array<Column<StatementItem>> = [
    { key: 'createdAt', label: t('common.time'), render: (s) => dateTime(s.createdAt) },
    { key: 'type', label: t('members.kind'), render: (s) => s.statementType },
    { key: 'from', label: t('members.from'), render: (s) => s.from },
    { key: 'to', label: t('members.target'), render: (s) => s.to },
    { key: 'amount', label: t('common.amount'), numeric: true, render: (s) => money(s.amount, m?.currency) },
    { key: 'status', label: t('common.status'), render: (s) => <StatusBadge status={s.status} /> },
    { key: 'note', label: t('common.note'), render: (s) => s.note ?? '' },
  ];
  const exportStatement = async () => {
    const rows = await allPages(async (p, size) => {
      const answer: { total: number; statements: StatementItem[] } = await call('memberStatement', { params: { id }, query: { page: p, limit: size } });
      return { total: answer.total, rows: answer.statements };
    });
    downloadCsv(`statement-${m?.username ?? id}.csv`, toCsv(rows as unknown as Array<Record<string, unknown>>, ['_id', 'createdAt', 'statementType', 'from', 'to', 'amount', 'status', 'note']));
  };
  const submitNote = (event: FormEvent) => {
    event.preventDefault();
    addNote.mutate();
  };
  return (
    <Page
      title={t('members.profile', { name: m ? `${m.name} (${m.username})` : '' })}
      actions={
        m && manage ? (
          <button type="button" className={m.status === 'active' ? 'btn btn-danger' : 'btn btn-primary'} onClick={() => lock.mutate(m.status === 'active')} disabled={lock.isPending}>
            {m.status === 'active' ? t('members.lock') : t('members.unlock')}
          </button>
        ) : null
      }
    >
      {done ? <Notice>{done}</Notice> : null}
      <ErrorText error={view.error ?? lock.error ?? addNote.error} />
      {view.data && m ? (
        <div className="grid">
          <Card title={t('members.wallet')}>
            <p className="big" data-testid="member-wallet">{money(view.data.wallet.amount, m.currency)}</p>
            <dl className="facts">
              <dt>{t('common.status')}</dt>
              <dd><StatusBadge status={m.status} /></dd>
              <dt>{t('members.bank')}</dt>
              <dd>{m.bankCode} {m.bankAccountNo} · {m.bankAccountName}</dd>
              <dt>{t('members.coins')}</dt>
              <dd>{view.data.coin}</dd>
              <dt>{t('members.joined')}</dt>
              <dd>{dateTime(m.createdAt)}</dd>
              <dt>{t('common.id')}</dt>
              <dd className="mono">{m.id}</dd>
            </dl>
          </Card>
          <Card title={t('members.games')}>
            {view.data.games.every((g) => !g.isActive) ? <p>{t('common.none')}</p> : null}
            <ul className="chips">
              {view.data.games.filter((g) => g.isActive).map((g) => (
                <li key={g.code} className="chip">{g.name}: {money(g.amount, m.currency)}</li>
              ))}
            </ul>
          </Card>
          <Card title={t('members.bonus')}>
            {view.data.bonus ? (
              <p>
                {view.data.bonus.code ?? ''} {view.data.bonus.progress ? t('members.turnover', { turnover: money(view.data.bonus.progress.turnover, m.currency), target: money(view.data.bonus.progress.target, m.currency) }) : ''}
              </p>
            ) : (
              <p>{t('members.noBonus')}</p>
            )}
          </Card>
          <Card title={t('members.invites')}>
            <p>
              {t('members.inviter')}: {view.data.invite.inviter ? <Link to={`/members/${encodeURIComponent(view.data.invite.inviter.id)}`}>{view.data.invite.inviter.name}</Link> : '—'}
            </p>
            <h3>{t('members.invited')}</h3>
            <ul className="list">
              {view.data.invite.invited.length === 0 ? <li>{t('common.none')}</li> : null}
              {view.data.invite.invited.map((f) => (
                <li key={f.id}><Link to={`/members/${encodeURIComponent(f.id)}`}>{f.name} ({f.username})</Link></li>
              ))}
            </ul>
          </Card>
        </div>
      ) : null}
      <Card title={t('members.statement')}>
        <button type="button" className="btn" onClick={() => void exportStatement()}>{t('common.exportCsv')}</button>
        <DataTable caption={t('members.statement')} columns={columns} rows={statement.data?.statements} rowKey={(s) => s._id} loading={statement.isPending} page={page} pageSize={PAGE_SIZE} total={statement.data?.total} onPage={setPage} />
      </Card>
      <div className="grid">
        <Card title={t('members.slips')}>
          <ul className="list">
            {slips.data?.slips.length === 0 ? <li>{t('common.none')}</li> : null}
            {slips.data?.slips.map((s) => (
              <li key={s.reference}>{dateTime(s.createdAt)} · {s.amount === null ? '—' : money(s.amount, m?.currency)} · <StatusBadge status={s.status} /> <span className="mono">{s.reference}</span></li>
            ))}
          </ul>
        </Card>
        <Card title={t('members.chat')}>
          <ol className="chatlog">
            {chat.data?.messages.length === 0 ? <li>{t('common.none')}</li> : null}
            {[...(chat.data?.messages ?? [])].reverse().map((c) => (
              <li key={c._id} className={c.sender === 'customer' ? 'from-customer' : 'from-support'}>
                <span className="muted">{dateTime(c.createdAt)}</span> {messageText(c)}
              </li>
            ))}
          </ol>
        </Card>
        <Card title={t('responsible.title')}>
          <MemberResponsible memberId={id} />
        </Card>
        <Card title={t('members.tags')}>
          <MemberTags memberId={id} tags={m?.tags ?? []} canEdit={can(operator?.role, 'members.tags')} />
        </Card>
        {can(operator?.role, 'risk') ? (
          <Card title={t('risk.memberFlags')}>
            <MemberRiskFlags memberId={id} />
          </Card>
        ) : null}
        {can(operator?.role, 'audit') ? (
          <Card title={t('audit.title')}>
            <MemberAudit memberId={id} />
          </Card>
        ) : null}
        <Card title={t('members.notes')}>
          <ul className="list">
            {view.data?.notes.map((n) => (
              <li key={n.id}><span className="muted">{dateTime(n.at)} · {n.author}</span> {n.text}</li>
            ))}
          </ul>
          {manage ? (
            <form className="form" onSubmit={submitNote}>
              <label className="field">
                <span>{t('members.addNote')}</span>
                <textarea required maxLength={1000} value={note} onChange={(e) => setNote(e.target.value)} />
              </label>
              <button type="submit" className="btn" disabled={addNote.isPending || !note.trim()}>{t('common.save')}</button>
            </form>
          ) : null}
        </Card>
      </div>
    </Page>
  );
}
