import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/client';
import { money } from '../../shared/format';
import { MoneyInput, type CurrencyCode } from '../../shared/money';
import { Card, ErrorText, Notice, Page } from '../../shared/ui';
import { isAwaiting } from './awaiting';
import { formOf, previewBonus, validateBonus, type BonusForm, type BonusRow } from './bonusForm';
import { Banners } from './BannersEditor';
import { CURRENCIES, majorText, minorOf, useServerProblems, messageOf } from './formKit';
import { PromotionCodes } from './PromotionCodes';
import { Rules } from './RulesForms';
import { Wheels } from './WheelEditor';
import { useMutation } from '../../shared/mutation';

type Tab = 'bonuses' | 'codes' | 'wheel' | 'banners' | 'rules';

/** Marketing's screens, each a form with a message per field: bonuses, codes, the wheel, banners, invite and refund rules. */
export function PromotionsPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('bonuses');
  const tabs: Tab[] = ['bonuses', 'codes', 'wheel', 'banners', 'rules'];
  return (
    <Page title={t('promotions.title')}>
      <div className="tabs" role="tablist">
        {tabs.map((name) => (
          <button key={name} id={`promotions-tab-${name}`} type="button" role="tab" aria-selected={tab === name} aria-controls="promotions-panel" className={`tab${tab === name ? ' selected' : ''}`} onClick={() => setTab(name)}>
            {t(`promotions.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="promotions-panel" aria-labelledby={`promotions-tab-${tab}`}>
        {tab === 'bonuses' ? <Bonuses /> : null}
        {tab === 'codes' ? <PromotionCodes /> : null}
        {tab === 'wheel' ? <Wheels /> : null}
        {tab === 'banners' ? <Banners /> : null}
        {tab === 'rules' ? <Rules /> : null}
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

type AmountTexts = Partial<Record<CurrencyCode, { minDeposit: string; maxBonus: string }>>;

function BonusEditor({ row, onClose }: { row: BonusRow; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [base, setForm] = useState<BonusForm>(() => formOf(row));
  // The amounts as typed, in major units of each currency (the form holds minor units).
  const [texts, setTexts] = useState<AmountTexts>(() =>
    Object.fromEntries(CURRENCIES.flatMap((c) => {
      const a = row.amounts[c];
      return a ? [[c, { minDeposit: majorText(a.minDeposit, c), maxBonus: majorText(a.maxBonus, c) }]] : [];
    })),
  );
  const [deposit, setDeposit] = useState('1000.00');
  const form: BonusForm = {
    ...base,
    amounts: Object.fromEntries(CURRENCIES.flatMap((c) => {
      const a = texts[c];
      return a ? [[c, { minDeposit: minorOf(a.minDeposit, c) ?? Number.NaN, maxBonus: minorOf(a.maxBonus, c) ?? Number.NaN }]] : [];
    })),
  };
  const problems = validateBonus(form);
  const save = useMutation({
    mutationFn: (body: BonusForm) => call('bonusPut', { params: { code: row.code }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['bonuses'] }),
  });
  const server = useServerProblems(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (Object.keys(problems).length === 0) save.mutate(form);
  };
  const number = (key: 'percent' | 'turnoverMultiple' | 'maxReceived' | 'percentFail' | 'sort' | 'depositWindowMinutes', label: string) => (
    <label className="field">
      <span>{label}</span>
      <input type="number" step="any" name={key} value={Number.isFinite(form[key]) ? form[key] : ''} aria-invalid={problems[key] ? 'true' : 'false'} onChange={(e) => { save.reset(); setForm({ ...base, [key]: e.target.value === '' ? Number.NaN : Number(e.target.value) }); }} />
      {problems[key] ? <small className="error">{problems[key]}</small> : null}
    </label>
  );
  const editAmount = (c: CurrencyCode, field: 'minDeposit' | 'maxBonus', value: string) => {
    save.reset();
    const now = texts[c] ?? { minDeposit: '', maxBonus: '' };
    setTexts({ ...texts, [c]: { ...now, [field]: value } });
  };
  const depositMinor = minorOf(deposit, 'THB');
  const preview = depositMinor === null ? null : previewBonus(form, 'THB', depositMinor);
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
          <input type="checkbox" checked={form.active} onChange={(e) => { save.reset(); setForm({ ...base, active: e.target.checked }); }} />
          <span>{t('promotions.active')}</span>
        </label>
        {CURRENCIES.filter((c) => texts[c]).map((c) => (
          <fieldset key={c} className="field">
            <legend>{c}</legend>
            <MoneyInput name={`amounts.${c}.minDeposit`} label={t('promotions.minDeposit')} currency={c} value={texts[c]?.minDeposit ?? ''} error={messageOf(problems, server, `amounts.${c}`) ? t('forms.err.amountPositive') : null} onChange={(value) => editAmount(c, 'minDeposit', value)} />
            <MoneyInput name={`amounts.${c}.maxBonus`} label={t('promotions.maxBonus')} currency={c} value={texts[c]?.maxBonus ?? ''} error={messageOf(problems, server, `amounts.${c}`) ? t('forms.err.amountPositive') : null} onChange={(value) => editAmount(c, 'maxBonus', value)} />
          </fieldset>
        ))}
        <div className="preview" aria-live="polite">
          <h3>{t('common.preview')}</h3>
          <MoneyInput label={t('promotions.depositExample')} currency="THB" value={deposit} onChange={setDeposit} />
          <p data-testid="bonus-preview">
            {preview && depositMinor !== null ? t('promotions.previewText', { deposit: money(depositMinor / 100, 'THB'), bonus: money(preview.bonus / 100, 'THB'), turnover: money(preview.turnover / 100, 'THB') }) : '—'}
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
