import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call, callWithJson } from '../../shared/client';
import { isAwaiting } from './JsonSetting';
import { minor } from '../../shared/format';
import { Card, ErrorText, Notice, Page } from '../../shared/ui';
import { formOf, previewBonus, validateBonus, type BonusForm, type BonusRow } from './bonusForm';
import { JsonSetting } from './JsonSetting';
import { useMutation } from '../../shared/mutation';

type Tab = 'bonuses' | 'codes' | 'wheel' | 'banners' | 'rules';

/** Marketing's screens: bonuses (a form with its checks and a preview), codes, the wheel, banners, invite and refund rules. */
export function PromotionsPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('bonuses');
  const tabs: Tab[] = ['bonuses', 'codes', 'wheel', 'banners', 'rules'];
  return (
    <Page title={t('promotions.title')}>
      <div className="tabs" role="tablist">
        {tabs.map((name) => (
          <button key={name} type="button" role="tab" aria-selected={tab === name} className={`tab${tab === name ? ' selected' : ''}`} onClick={() => setTab(name)}>
            {t(`promotions.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        {tab === 'bonuses' ? <Bonuses /> : null}
        {tab === 'codes' ? <JsonSetting title={t('promotions.codes')} cacheKey="promotions" load={() => call('promotionsList')} store={(body, code) => callWithJson('promotionPut', { params: { code }, body })} listKey="promotions" itemKey="code" /> : null}
        {tab === 'wheel' ? (
          <>
            <p className="muted">{t('promotions.seeds')}</p>
            <JsonSetting title={`${t('promotions.wheel')} THB`} cacheKey="spinwheel-THB" load={() => call('spinwheelGet', { query: { currency: 'THB' } })} store={(body) => callWithJson('spinwheelPut', { query: { currency: 'THB' }, body })} />
            <JsonSetting title={`${t('promotions.wheel')} LAK`} cacheKey="spinwheel-LAK" load={() => call('spinwheelGet', { query: { currency: 'LAK' } })} store={(body) => callWithJson('spinwheelPut', { query: { currency: 'LAK' }, body })} />
          </>
        ) : null}
        {tab === 'banners' ? (
          <>
            <JsonSetting title={`${t('promotions.banners')}: invite`} cacheKey="invite-banners" load={() => call('inviteBannersGet')} store={(body) => callWithJson('inviteBannersPut', { body })} />
            <JsonSetting title={`${t('promotions.banners')}: refund`} cacheKey="refund-banners" load={() => call('refundBannersGet')} store={(body) => callWithJson('refundBannersPut', { body })} />
          </>
        ) : null}
        {tab === 'rules' ? (
          <>
            <JsonSetting title="invite" cacheKey="invite-settings" load={() => call('inviteSettingsGet')} store={(body) => callWithJson('inviteSettingsPut', { body })} />
            <JsonSetting title="refund" cacheKey="refund-settings" load={() => call('refundSettingsGet')} store={(body) => callWithJson('refundSettingsPut', { body })} />
          </>
        ) : null}
      </div>
    </Page>
  );
}

function Bonuses() {
  const { t } = useTranslation();
  // The contract's bonus rows are loose (code and any field): this screen's BonusRow names the fields it edits.
  const list = useQuery({ queryKey: ['bonuses'], queryFn: () => call('bonusesList').then((answer) => ({ bonuses: answer.bonuses as unknown as BonusRow[] })) });
  const [editing, setEditing] = useState<string | null>(null);
  const row = list.data?.bonuses.find((b) => b.code === editing);
  return (
    <>
      <ErrorText error={list.error} />
      <ul className="list">
        {list.data?.bonuses.map((b) => (
          <li key={b.code} className="row">
            <strong>{b.code}</strong> <span>{Number(b.percent)}% · ×{Number(b.turnover_multiple)}</span> <span className="muted">{b.active ? t('promotions.active') : '—'}</span>
            <button type="button" className="btn" onClick={() => setEditing(b.code)} aria-label={`${t('promotions.edit')} ${b.code}`}>
              {t('promotions.edit')}
            </button>
          </li>
        ))}
      </ul>
      {row ? <BonusEditor key={row.code} row={row} onClose={() => setEditing(null)} /> : null}
    </>
  );
}

function BonusEditor({ row, onClose }: { row: BonusRow; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<BonusForm>(() => formOf(row));
  const [deposit, setDeposit] = useState(100_00);
  const problems = validateBonus(form);
  const save = useMutation({
    mutationFn: () => callWithJson('bonusPut', { params: { code: row.code }, body: form }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['bonuses'] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (Object.keys(problems).length === 0) save.mutate();
  };
  const number = (key: 'percent' | 'turnoverMultiple' | 'maxReceived' | 'percentFail' | 'sort' | 'depositWindowMinutes', label: string) => (
    <label className="field">
      <span>{label}</span>
      <input type="number" step="any" name={key} value={Number.isFinite(form[key]) ? form[key] : ''} aria-invalid={problems[key] ? 'true' : 'false'} onChange={(e) => setForm({ ...form, [key]: e.target.value === '' ? Number.NaN : Number(e.target.value) })} />
      {problems[key] ? <small className="error">{problems[key]}</small> : null}
    </label>
  );
  return (
    <Card title={`${t('promotions.edit')} ${row.code}`}>
      <form className="form grid-form" onSubmit={submit}>
        {number('percent', t('promotions.percent'))}
        {number('turnoverMultiple', t('promotions.turnover'))}
        {number('maxReceived', t('promotions.maxReceived'))}
        {number('percentFail', t('promotions.percentFail'))}
        {number('depositWindowMinutes', t('promotions.window'))}
        {number('sort', t('promotions.sort'))}
        <label className="field check">
          <input type="checkbox" checked={form.active} onChange={(e) => setForm({ ...form, active: e.target.checked })} />
          <span>{t('promotions.active')}</span>
        </label>
        {Object.entries(form.amounts).map(([currency, amounts]) => (
          <fieldset key={currency} className="field">
            <legend>{currency}</legend>
            <label>
              <span>{t('promotions.minDeposit', { currency })}</span>
              <input type="number" value={amounts.minDeposit} onChange={(e) => setForm({ ...form, amounts: { ...form.amounts, [currency]: { ...amounts, minDeposit: Number(e.target.value) } } })} />
            </label>
            <label>
              <span>{t('promotions.maxBonus', { currency })}</span>
              <input type="number" value={amounts.maxBonus} onChange={(e) => setForm({ ...form, amounts: { ...form.amounts, [currency]: { ...amounts, maxBonus: Number(e.target.value) } } })} />
            </label>
          </fieldset>
        ))}
        <div className="preview" aria-live="polite">
          <h3>{t('common.preview')}</h3>
          <label className="field">
            <span>{t('promotions.depositExample')}</span>
            <input type="number" value={deposit} onChange={(e) => setDeposit(Number(e.target.value))} />
          </label>
          <p data-testid="bonus-preview">
            {t('promotions.previewText', { deposit: minor(deposit), bonus: minor(previewBonus(form, 'THB', deposit).bonus), turnover: minor(previewBonus(form, 'THB', deposit).turnover) })}
          </p>
        </div>
        <div className="row">
          <button type="button" className="btn" onClick={onClose}>{t('common.close')}</button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending || Object.keys(problems).length > 0}>{t('common.save')}</button>
        </div>
        {save.isSuccess ? <Notice>{isAwaiting(save.data) ? t('settings.awaiting') : t('common.saved')}</Notice> : null}
        <ErrorText error={save.error} />
      </form>
    </Card>
  );
}
