import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call, type CallAnswer } from '../../shared/client';
import type { Role } from '../../shared/session';
import { Card, ErrorText, Notice, Page, StatusBadge } from '../../shared/ui';
import { useMutation } from '../../shared/mutation';

type OperatorRow = CallAnswer<'operatorRole'>;
/** POST /api/operator/operators and …/reset-totp: the operator and their one-time enrolment link. */
type Created = CallAnswer<'operatorCreate'>;

const ROLES: Role[] = ['owner', 'finance', 'support', 'marketing'];

/** Operators (owner): create (a one-time enrolment link), change role, reset TOTP, disable / enable. */
export function OperatorsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ['operators'], queryFn: () => call('operatorsList').then((a) => a.operators) });
  const [username, setUsername] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('support');
  const [link, setLink] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['operators'] });
  const create = useMutation({
    mutationFn: () => call('operatorCreate', { body: { username: username.trim().toLowerCase(), name: name.trim(), role } }),
    onSuccess: (answer) => {
      setLink(answer.enrolment.link);
      setUsername('');
      setName('');
      void refresh();
    },
  });
  const change = useMutation({
    mutationFn: ({ op, action, value }: { op: OperatorRow; action: 'role' | 'disable' | 'enable' | 'reset-totp'; value?: Role }) => {
      const params = { id: op.id };
      if (action === 'role') return call('operatorRole', { params, body: { role: value ?? op.role } });
      if (action === 'disable') return call('operatorDisable', { params });
      if (action === 'enable') return call('operatorEnable', { params });
      return call('operatorResetTotp', { params });
    },
    onSuccess: (answer: Created | OperatorRow) => {
      if ('enrolment' in answer) setLink(answer.enrolment.link);
      void refresh();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Page title={t('operators.title')}>
      <ErrorText error={list.error ?? create.error ?? change.error} />
      {link ? <Notice>{t('operators.enrolLink', { link })}</Notice> : null}
      <Card>
        <table className="table">
          <caption className="sr-only">{t('operators.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('operators.username')}</th>
              <th scope="col">{t('operators.name')}</th>
              <th scope="col">{t('operators.role')}</th>
              <th scope="col">{t('operators.status')}</th>
              <th scope="col">{t('common.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.map((op) => (
              <tr key={op.username}>
                <td>{op.username}</td>
                <td>{op.name}</td>
                <td>
                  <label>
                    <span className="sr-only">{t('operators.changeRole')} {op.username}</span>
                    <select value={op.role} onChange={(e) => change.mutate({ op, action: 'role', value: e.target.value as Role })}>
                      {ROLES.map((r) => <option key={r} value={r}>{t(`roles.${r}`)}</option>)}
                    </select>
                  </label>
                </td>
                <td><StatusBadge status={op.status} /></td>
                <td className="row">
                  <button type="button" className="btn" onClick={() => change.mutate({ op, action: 'reset-totp' })}>{t('operators.resetTotp')}</button>
                  {op.status === 'disabled' ? (
                    <button type="button" className="btn" onClick={() => change.mutate({ op, action: 'enable' })}>{t('operators.enable')}</button>
                  ) : (
                    <button type="button" className="btn btn-danger" onClick={() => change.mutate({ op, action: 'disable' })} aria-label={`${t('operators.disable')} ${op.username}`}>{t('operators.disable')}</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <Card title={t('operators.create')}>
        <form className="form inline" onSubmit={submit}>
          <label className="field">
            <span>{t('operators.username')}</span>
            <input required pattern="[a-z0-9._-]{3,32}" value={username} onChange={(e) => setUsername(e.target.value)} />
          </label>
          <label className="field">
            <span>{t('operators.name')}</span>
            <input required maxLength={64} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label className="field">
            <span>{t('operators.role')}</span>
            <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {ROLES.map((r) => <option key={r} value={r}>{t(`roles.${r}`)}</option>)}
            </select>
          </label>
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>{t('operators.create')}</button>
        </form>
      </Card>
    </Page>
  );
}
