import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, type CallAnswer } from '../../shared/client';
import { Card, ErrorText, Notice, Page } from '../../shared/ui';
import { SlipRulesForm } from './SlipRulesForm';
import { useMutation } from '../../shared/mutation';

const SWITCHES = ['siteActive', 'registerOTP', 'enableChatWidget'] as const;

type Channel = CallAnswer<'depositChannels'>['channels'][number];

/** Site switches, the slip rules and the deposit channels (owner). */
export function SettingsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  const switches = useQuery({ queryKey: ['settings', 'switches'], queryFn: () => call('operatorSettings') });
  const toggle = useMutation({
    // The manual-deposit switch waits for a second person (202): the screen says so, not "saved".
    mutationFn: async ({ key, value }: { key: (typeof SWITCHES)[number] | 'depositManual'; value: boolean }): Promise<boolean> =>
      key === 'depositManual' ? 'approvalId' in (await call('depositManualSwitch', { body: { value } })) : (await call('operatorSetting', { params: { key }, body: { value } }), false),
    onSuccess: (awaiting) => {
      setDone(awaiting ? t('settings.awaiting') : t('common.saved'));
      void switches.refetch();
    },
  });
  const channels = useQuery({ queryKey: ['channels'], queryFn: () => call('depositChannels') });
  const [editing, setEditing] = useState<Channel | null>(null);
  const saveChannel = useMutation({
    mutationFn: async (c: Channel): Promise<boolean> =>
      'approvalId' in (await call('depositChannelPut', { params: { id: c.id }, body: { kind: c.kind, bankCode: c.bank_code, bankType: c.bank_type, mode: c.mode, accountName: c.account_name, accountNo: c.account_no, currency: c.currency === 'LAK' ? 'LAK' : 'BAHT', sort: c.sort, active: c.active } })),
    onSuccess: (awaiting) => {
      setDone(awaiting ? t('settings.awaiting') : t('common.saved'));
      setEditing(null);
      void queryClient.invalidateQueries({ queryKey: ['channels'] });
    },
  });
  return (
    <Page title={t('settings.title')}>
      {done ? <Notice>{done}</Notice> : null}
      <ErrorText error={toggle.error ?? channels.error ?? saveChannel.error} />
      <Card title={t('settings.site')}>
        <ul className="list">
          {[...SWITCHES, 'depositManual' as const].map((key) => {
            const on = switches.data?.[key];
            return (
              <li key={key} className="row">
                <span className="grow">{t(`settings.${key}`)}</span>
                <strong data-testid={`switch-${key}`}>{on === undefined ? '…' : on ? t('settings.on') : t('settings.off')}</strong>
                <button type="button" className="btn" disabled={on === undefined || toggle.isPending} onClick={() => toggle.mutate({ key, value: !on })}>
                  {on ? t('settings.switchOff') : t('settings.switchOn')}
                </button>
              </li>
            );
          })}
        </ul>
      </Card>
      <SlipRulesForm />
      <Card title={t('settings.channels')}>
        <p className="muted">{t('settings.channelHint')}</p>
        <table className="table">
          <caption className="sr-only">{t('settings.channels')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('settings.bankCode')}</th>
              <th scope="col">{t('settings.accountNo')}</th>
              <th scope="col">{t('settings.accountName')}</th>
              <th scope="col">{t('settings.mode')}</th>
              <th scope="col">{t('common.status')}</th>
            </tr>
          </thead>
          <tbody>
            {channels.data?.channels.map((c) => (
              <tr key={c.id}>
                <td>{c.bank_code} ({c.kind})</td>
                {editing?.id === c.id ? (
                  <>
                    <td>
                      <input className="input mono" aria-label={t('settings.accountNo')} inputMode="numeric" value={editing.account_no} onChange={(e) => setEditing({ ...editing, account_no: e.target.value.replace(/\D/g, '').slice(0, 20) })} />
                    </td>
                    <td>
                      <input className="input" aria-label={t('settings.accountName')} value={editing.account_name} maxLength={120} onChange={(e) => setEditing({ ...editing, account_name: e.target.value })} />
                    </td>
                    <td>{c.mode}</td>
                    <td>
                      <button type="button" className="btn btn-primary" disabled={saveChannel.isPending} onClick={() => saveChannel.mutate(editing)}>
                        {t('settings.save')}
                      </button>{' '}
                      <button type="button" className="btn" onClick={() => setEditing(null)}>
                        {t('settings.cancel')}
                      </button>
                    </td>
                  </>
                ) : (
                  <>
                    <td className="mono">{c.account_no}</td>
                    <td>{c.account_name}</td>
                    <td>{c.mode}</td>
                    <td>
                      <button type="button" className="btn" onClick={() => saveChannel.mutate({ ...c, active: !c.active })} aria-pressed={c.active}>
                        {c.active ? t('common.statuses.active') : t('common.statuses.inactive')}
                      </button>{' '}
                      <button type="button" className="btn" onClick={() => setEditing(c)}>
                        {t('settings.edit')}
                      </button>
                    </td>
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </Page>
  );
}
