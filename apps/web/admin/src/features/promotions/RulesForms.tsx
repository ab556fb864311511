import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call, type CallAnswer, type CallInput } from '../../shared/client';
import { MoneyInput, type CurrencyCode } from '../../shared/money';
import { useMutation } from '../../shared/mutation';
import { Card, ErrorText } from '../../shared/ui';
import { isAwaiting } from './awaiting';
import { CheckField, CONTENT_LANGUAGES, CURRENCIES, Field, NumberField, TextField, amountReads, htmlOf, majorText, messageOf, minorOf, numberOf, textsOf, SaveOutcome, useServerProblems, type ContentLanguage, type Problems } from './formKit';

type InviteBody = NonNullable<CallInput<'inviteSettingsPut'>['body']>;
type RefundBody = NonNullable<CallInput<'refundSettingsPut'>['body']>;
type PerCurrency = Record<CurrencyCode, string>;

const perCurrencyOf = (value: unknown): PerCurrency => {
  const map = value && typeof value === 'object' ? (value as Record<string, unknown>) : typeof value === 'number' ? { THB: value } : {};
  return { THB: typeof map.THB === 'number' ? majorText(map.THB, 'THB') : '', LAK: typeof map.LAK === 'number' ? majorText(map.LAK, 'LAK') : '' };
};
const minorMap = (texts: PerCurrency): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const c of CURRENCIES) {
    const minor = minorOf(texts[c], c);
    if (minor !== null) out[c] = minor;
  }
  return out;
};
const percentProblem = (text: string, max: number, t: TFunction): string | null => {
  const value = numberOf(text);
  return value >= 0 && value <= max ? null : t('forms.err.range', { min: 0, max: max.toLocaleString('en-US') });
};
const amountProblems = (prefix: string, texts: PerCurrency, t: TFunction, problems: Problems) => {
  for (const c of CURRENCIES) {
    if (!amountReads(texts[c], c)) problems[`${prefix}.${c}`] = t('forms.err.invalid');
    else if (texts[c].trim() !== '' && (minorOf(texts[c], c) ?? 0) < 1) problems[`${prefix}.${c}`] = t('forms.err.amountPositive');
  }
};

/** The invite and refund rules. */
export function Rules() {
  const invite = useQuery({ queryKey: ['invite-settings'], queryFn: () => call('inviteSettingsGet') });
  const refund = useQuery({ queryKey: ['refund-settings'], queryFn: () => call('refundSettingsGet') });
  return (
    <>
      {invite.data ? <InviteRulesForm stored={invite.data} /> : <ErrorText error={invite.error} />}
      {refund.data ? <RefundRulesForm stored={refund.data} /> : <ErrorText error={refund.error} />}
    </>
  );
}

interface InviteDraft {
  active: boolean;
  percent: string;
  minimum: PerCurrency;
  successPercent: string;
  failPercent: string;
}

export function validateInvite(draft: InviteDraft, t: TFunction): Problems {
  const problems: Problems = {};
  const percent = percentProblem(draft.percent, 100, t);
  if (percent) problems.percent = percent;
  const success = percentProblem(draft.successPercent, 10_000, t);
  if (success) problems.successPercent = success;
  const fail = percentProblem(draft.failPercent, 100, t);
  if (fail) problems.failPercent = fail;
  amountProblems('minimum', draft.minimum, t, problems);
  return problems;
}

export function inviteBody(draft: InviteDraft): InviteBody {
  return { active: draft.active, percent: numberOf(draft.percent), minimum: minorMap(draft.minimum), successPercent: numberOf(draft.successPercent), failPercent: numberOf(draft.failPercent) };
}

export function InviteRulesForm({ stored }: { stored: CallAnswer<'inviteSettingsGet'> }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<InviteDraft>(() => ({ active: stored.active, percent: String(stored.percent), minimum: perCurrencyOf(stored.minimum), successPercent: String(stored.successPercent), failPercent: String(stored.failPercent) }));
  const [shown, setShown] = useState(false);
  const problems = validateInvite(draft, t);
  const save = useMutation({ mutationFn: (body: InviteBody) => call('inviteSettingsPut', { body }), onSuccess: (answer) => (isAwaiting(answer) ? undefined : queryClient.setQueryData(['invite-settings'], answer)) });
  const server = useServerProblems(save.error);
  const visible = shown ? problems : {};
  const message = (path: string) => messageOf(visible, server, path);
  const edit = (patch: Partial<InviteDraft>) => {
    save.reset();
    setDraft({ ...draft, ...patch });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (Object.keys(problems).length === 0) save.mutate(inviteBody(draft));
  };
  const title = t('forms.rules.invite');
  return (
    <Card title={title}>
      <form className="form grid-form" onSubmit={submit} noValidate aria-label={title}>
        <CheckField label={t('forms.rules.inviteActive')} checked={draft.active} onChange={(active) => edit({ active })} />
        <NumberField label={t('forms.rules.invitePercent')} suffix="%" name="percent" value={draft.percent} message={message('percent')} onChange={(percent) => edit({ percent })} />
        <NumberField label={t('forms.rules.successPercent')} suffix="%" name="successPercent" hint={t('forms.rules.successHint')} value={draft.successPercent} message={message('successPercent')} onChange={(successPercent) => edit({ successPercent })} />
        <NumberField label={t('forms.rules.failPercent')} suffix="%" name="failPercent" value={draft.failPercent} message={message('failPercent')} onChange={(failPercent) => edit({ failPercent })} />
        <fieldset className="preview">
          <legend>{t('forms.rules.inviteMinimum')}</legend>
          <p className="muted">{t('forms.rules.emptyCurrency')}</p>
          {CURRENCIES.map((c) => (
            <MoneyInput key={c} name={`minimum.${c}`} label={t('forms.rules.minimum')} currency={c} value={draft.minimum[c]} error={message(`minimum.${c}`)} onChange={(value) => edit({ minimum: { ...draft.minimum, [c]: value } })} />
          ))}
        </fieldset>
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {t('common.save')}
          </button>
        </div>
        <SaveOutcome saved={save.isSuccess} awaiting={isAwaiting(save.data)} showFix={shown && Object.keys(problems).length > 0} error={save.error} />
      </form>
    </Card>
  );
}

interface RefundDraft {
  active: boolean;
  period: 'day' | 'week';
  percent: string;
  minimum: PerCurrency;
  maximum: PerCurrency;
  successPercent: string;
  failPercent: string;
  info: Record<CurrencyCode, Record<ContentLanguage, string>>;
}

export function validateRefund(draft: RefundDraft, t: TFunction): Problems {
  const problems: Problems = {};
  const percent = percentProblem(draft.percent, 100, t);
  if (percent) problems.percent = percent;
  const success = percentProblem(draft.successPercent, 10_000, t);
  if (success) problems.successPercent = success;
  const fail = percentProblem(draft.failPercent, 100, t);
  if (fail) problems.failPercent = fail;
  amountProblems('minimum', draft.minimum, t, problems);
  amountProblems('maximum', draft.maximum, t, problems);
  for (const c of CURRENCIES) {
    const min = minorOf(draft.minimum[c], c);
    const max = minorOf(draft.maximum[c], c);
    if (problems[`minimum.${c}`] || problems[`maximum.${c}`]) continue;
    if ((min === null) !== (max === null)) problems[min === null ? `minimum.${c}` : `maximum.${c}`] = t('forms.rules.bothOrNeither');
    else if (min !== null && max !== null && max < min) problems[`maximum.${c}`] = t('forms.rules.maxBelowMin');
  }
  return problems;
}

export function refundBody(draft: RefundDraft): RefundBody {
  const info: Record<string, { th: string; la: string; en: string }> = {};
  for (const c of CURRENCIES) info[c] = { th: htmlOf('', draft.info[c].th), la: htmlOf('', draft.info[c].la), en: htmlOf('', draft.info[c].en) };
  return { active: draft.active, period: draft.period, percent: numberOf(draft.percent), minimum: minorMap(draft.minimum), maximum: minorMap(draft.maximum), successPercent: numberOf(draft.successPercent), failPercent: numberOf(draft.failPercent), info };
}

function refundDraftOf(stored: CallAnswer<'refundSettingsGet'>): RefundDraft {
  const infoRaw = stored.info && typeof stored.info === 'object' ? (stored.info as Record<string, unknown>) : {};
  const texts = (c: CurrencyCode): Record<ContentLanguage, string> => {
    const byLang = infoRaw[c] && typeof infoRaw[c] === 'object' ? (infoRaw[c] as Record<string, unknown>) : {};
    const one = (lang: ContentLanguage) => (typeof byLang[lang] === 'string' ? textsOf(byLang[lang]).text : '');
    return { th: one('th'), la: one('la'), en: one('en') };
  };
  return {
    active: stored.active,
    period: stored.period,
    percent: String(stored.percent),
    minimum: perCurrencyOf(stored.minimum),
    maximum: perCurrencyOf(stored.maximum),
    successPercent: String(stored.successPercent),
    failPercent: String(stored.failPercent),
    info: { THB: texts('THB'), LAK: texts('LAK') },
  };
}

export function RefundRulesForm({ stored }: { stored: CallAnswer<'refundSettingsGet'> }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<RefundDraft>(() => refundDraftOf(stored));
  const [shown, setShown] = useState(false);
  const problems = validateRefund(draft, t);
  const save = useMutation({ mutationFn: (body: RefundBody) => call('refundSettingsPut', { body }), onSuccess: (answer) => (isAwaiting(answer) ? undefined : queryClient.setQueryData(['refund-settings'], answer)) });
  const server = useServerProblems(save.error);
  const visible = shown ? problems : {};
  const message = (path: string) => messageOf(visible, server, path);
  const edit = (patch: Partial<RefundDraft>) => {
    save.reset();
    setDraft({ ...draft, ...patch });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (Object.keys(problems).length === 0) save.mutate(refundBody(draft));
  };
  const title = t('forms.rules.refund');
  return (
    <Card title={title}>
      <form className="form grid-form" onSubmit={submit} noValidate aria-label={title}>
        <CheckField label={t('forms.rules.refundActive')} checked={draft.active} onChange={(active) => edit({ active })} />
        <Field label={t('forms.rules.period')} message={null}>
          {(aria) => (
            <select {...aria} name="period" value={draft.period} onChange={(e) => edit({ period: e.target.value === 'day' ? 'day' : 'week' })}>
              <option value="day">{t('forms.rules.periods.day')}</option>
              <option value="week">{t('forms.rules.periods.week')}</option>
            </select>
          )}
        </Field>
        <NumberField label={t('forms.rules.refundPercent')} suffix="%" name="percent" value={draft.percent} message={message('percent')} onChange={(percent) => edit({ percent })} />
        <NumberField label={t('forms.rules.successPercent')} suffix="%" name="successPercent" hint={t('forms.rules.successHint')} value={draft.successPercent} message={message('successPercent')} onChange={(successPercent) => edit({ successPercent })} />
        <NumberField label={t('forms.rules.failPercent')} suffix="%" name="failPercent" value={draft.failPercent} message={message('failPercent')} onChange={(failPercent) => edit({ failPercent })} />
        {CURRENCIES.map((c) => (
          <fieldset key={c} className="preview">
            <legend>{t('forms.rules.inCurrency', { currency: c })}</legend>
            <p className="muted">{t('forms.rules.refundEmptyCurrency')}</p>
            <div className="grid-form">
              <MoneyInput name={`minimum.${c}`} label={t('forms.rules.minimum')} currency={c} value={draft.minimum[c]} error={message(`minimum.${c}`)} onChange={(value) => edit({ minimum: { ...draft.minimum, [c]: value } })} />
              <MoneyInput name={`maximum.${c}`} label={t('forms.rules.maximum')} currency={c} value={draft.maximum[c]} error={message(`maximum.${c}`)} onChange={(value) => edit({ maximum: { ...draft.maximum, [c]: value } })} />
            </div>
            {CONTENT_LANGUAGES.map((lang) => (
              <TextField key={lang} label={t('forms.rules.info', { language: t(`forms.lang.${lang}`) })} lang={lang} name={`info.${c}.${lang}`} maxLength={4000} value={draft.info[c][lang]} message={message(`info.${c}.${lang}`)} onChange={(value) => edit({ info: { ...draft.info, [c]: { ...draft.info[c], [lang]: value } } })} />
            ))}
            <div className="text-preview" aria-label={t('forms.rules.infoPreview', { currency: c })} role="group">
              {CONTENT_LANGUAGES.map((lang) => (draft.info[c][lang].trim() ? <p key={lang} lang={lang}>{draft.info[c][lang].trim()}</p> : null))}
            </div>
          </fieldset>
        ))}
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {t('common.save')}
          </button>
        </div>
        <SaveOutcome saved={save.isSuccess} awaiting={isAwaiting(save.data)} showFix={shown && Object.keys(problems).length > 0} error={save.error} />
      </form>
    </Card>
  );
}
