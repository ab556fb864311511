import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call, type CallInput } from '../../shared/client';
import { dateTime } from '../../shared/format';
import { Money, MoneyInput, type CurrencyCode } from '../../shared/money';
import { useMutation } from '../../shared/mutation';
import { Card, ErrorText } from '../../shared/ui';
import { isAwaiting } from './awaiting';
import { CheckField, CONTENT_LANGUAGES, CURRENCIES, Field, NumberField, TextField, amountReads, intOf, majorText, messageOf, minorOf, numberOf, SaveOutcome, useServerProblems, type ContentLanguage, type Problems } from './formKit';

type Body = NonNullable<CallInput<'promotionPut'>['body']>;

/** A promotion code as the list answers it (a row of `promotions`), read field by field. */
export interface PromotionRow {
  code: string;
  kind: 'credit' | 'bonus';
  amounts: Partial<Record<CurrencyCode, number>>;
  bonusCode: string | null;
  percentFail: number;
  description: Record<ContentLanguage, string>;
  validFrom: string | null;
  validTo: string | null;
  maxUses: number | null;
  maxPerMember: number;
  active: boolean;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const record = (value: unknown): Record<string, unknown> => {
  const parsed: unknown = typeof value === 'string' ? safeJson(value) : value;
  return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
};
function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

/** A stored row (snake_case, JSON columns, numeric as text) as the form reads it. */
export function promotionOf(raw: Record<string, unknown>): PromotionRow {
  const amounts = record(raw.amounts);
  const description = record(raw.description);
  const maxUses = raw.max_uses === null || raw.max_uses === undefined ? null : Number(raw.max_uses);
  return {
    code: text(raw.code),
    kind: raw.kind === 'bonus' ? 'bonus' : 'credit',
    amounts: Object.fromEntries(CURRENCIES.flatMap((c) => (typeof amounts[c] === 'number' ? [[c, amounts[c]]] : []))),
    bonusCode: typeof raw.bonus_code === 'string' ? raw.bonus_code : null,
    percentFail: Number(raw.percent_fail ?? 0),
    description: { th: text(description.th), la: text(description.la), en: text(description.en) },
    validFrom: typeof raw.valid_from === 'string' ? raw.valid_from : null,
    validTo: typeof raw.valid_to === 'string' ? raw.valid_to : null,
    maxUses,
    maxPerMember: Number(raw.max_per_member ?? 1),
    active: raw.active !== false,
  };
}

/** The form's boxes, as typed. */
interface Draft {
  code: string;
  kind: 'credit' | 'bonus';
  amounts: Record<CurrencyCode, string>;
  bonusCode: string;
  percentFail: string;
  description: Record<ContentLanguage, string>;
  validFrom: string;
  validTo: string;
  maxUses: string;
  maxPerMember: string;
  active: boolean;
}

/** An instant as a datetime-local box in Asia/Bangkok (UTC+7 all year). */
function localOf(iso: string | null): string {
  if (!iso) return '';
  const time = new Date(iso).getTime();
  if (!Number.isFinite(time)) return '';
  return new Date(time + 7 * 3600_000).toISOString().slice(0, 16);
}

/** A datetime-local box (Asia/Bangkok) as an ISO instant with its offset; null when empty. */
function isoOf(local: string): string | null {
  if (!local) return null;
  return `${local.length === 16 ? `${local}:00` : local}+07:00`;
}

function draftOf(row: PromotionRow | null): Draft {
  return {
    code: row?.code ?? '',
    kind: row?.kind ?? 'bonus',
    amounts: { THB: majorText(row?.amounts.THB, 'THB'), LAK: majorText(row?.amounts.LAK, 'LAK') },
    bonusCode: row?.bonusCode ?? '',
    percentFail: String(row?.percentFail ?? 0),
    description: row?.description ?? { th: '', la: '', en: '' },
    validFrom: localOf(row?.validFrom ?? null),
    validTo: localOf(row?.validTo ?? null),
    maxUses: row?.maxUses === null || row?.maxUses === undefined ? '' : String(row.maxUses),
    maxPerMember: String(row?.maxPerMember ?? 1),
    active: row?.active ?? true,
  };
}

/** The list of codes and the form that creates or changes one. */
export function PromotionCodes() {
  const { t } = useTranslation();
  const list = useQuery({ queryKey: ['promotions'], queryFn: () => call('promotionsList').then((answer) => answer.promotions.map((row) => promotionOf(row))) });
  const [editing, setEditing] = useState<PromotionRow | 'new' | null>(null);
  return (
    <>
      <Card title={t('promotions.codes')}>
        <ErrorText error={list.error} />
        <div className="table-wrap" role="region" aria-label={t('promotions.codes')} tabIndex={0}>
          <table className="table">
            <caption className="sr-only">{t('promotions.codes')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('promotions.code')}</th>
                <th scope="col">{t('forms.code.kind')}</th>
                <th scope="col">{t('forms.code.gives')}</th>
                <th scope="col">{t('forms.code.uses')}</th>
                <th scope="col">{t('forms.code.valid')}</th>
                <th scope="col">{t('common.status')}</th>
                <th scope="col">{t('common.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data?.map((row) => (
                <tr key={row.code}>
                  <td className="mono">{row.code}</td>
                  <td>{t(`forms.code.kinds.${row.kind}`)}</td>
                  <td>
                    {row.kind === 'credit'
                      ? CURRENCIES.filter((c) => row.amounts[c] !== undefined).map((c, i) => (
                          <span key={c}>
                            {i > 0 ? ' · ' : null}
                            <Money amount={(row.amounts[c] ?? 0) / 100} currency={c} />
                          </span>
                        ))
                      : t('forms.code.bonusOf', { code: row.bonusCode ?? '—' })}
                  </td>
                  <td>{t('forms.code.usesText', { perMember: row.maxPerMember, total: row.maxUses === null ? t('forms.code.unlimited') : row.maxUses })}</td>
                  <td>{row.validFrom || row.validTo ? `${dateTime(row.validFrom)} – ${dateTime(row.validTo)}` : t('forms.code.always')}</td>
                  <td>{row.active ? t('promotions.active') : t('forms.inactive')}</td>
                  <td>
                    <button type="button" className="btn" onClick={() => setEditing(row)} aria-label={`${t('promotions.edit')} ${row.code}`}>
                      {t('promotions.edit')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {list.data && list.data.length === 0 ? <p className="muted">{t('common.none')}</p> : null}
        <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
          {t('forms.code.new')}
        </button>
      </Card>
      {editing ? <PromotionEditor key={editing === 'new' ? '+new' : editing.code} row={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}

/** Field → problem, the contract's rules (the server checks again). */
export function validatePromotion(draft: Draft, isNew: boolean, t: TFunction): Problems {
  const problems: Problems = {};
  if (isNew && !/^[A-Za-z0-9_-]{1,32}$/.test(draft.code)) problems.code = draft.code ? t('forms.err.codeFormat') : t('forms.err.required');
  if (draft.kind === 'credit') {
    const given = CURRENCIES.filter((c) => draft.amounts[c].trim() !== '');
    if (given.length === 0) problems.amounts = t('forms.err.amountNeeded');
    for (const c of given) {
      const minor = minorOf(draft.amounts[c], c);
      if (!amountReads(draft.amounts[c], c)) problems[`amounts.${c}`] = t('forms.err.invalid');
      else if (minor === null || minor < 1) problems[`amounts.${c}`] = t('forms.err.amountPositive');
    }
  } else if (!draft.bonusCode) problems.bonusCode = t('forms.err.required');
  const fail = numberOf(draft.percentFail);
  if (!(fail >= 0 && fail <= 100)) problems.percentFail = t('forms.err.range', { min: 0, max: 100 });
  for (const lang of CONTENT_LANGUAGES) if (draft.description[lang].length > 500) problems[`description.${lang}`] = t('forms.err.tooLong', { max: 500 });
  if (draft.validFrom && draft.validTo && draft.validTo <= draft.validFrom) problems.validTo = t('forms.err.toAfterFrom');
  if (draft.maxUses.trim() !== '') {
    const uses = intOf(draft.maxUses);
    if (!(uses >= 1 && uses <= 10_000_000)) problems.maxUses = t('forms.err.range', { min: 1, max: '10,000,000' });
  }
  const perMember = intOf(draft.maxPerMember);
  if (!(perMember >= 1 && perMember <= 1000)) problems.maxPerMember = t('forms.err.range', { min: 1, max: '1,000' });
  return problems;
}

/** The body the server takes: amounts in minor units of each currency. */
export function promotionBody(draft: Draft): Body {
  const amounts: Partial<Record<CurrencyCode, number>> = {};
  if (draft.kind === 'credit') {
    for (const c of CURRENCIES) {
      const minor = minorOf(draft.amounts[c], c);
      if (minor !== null) amounts[c] = minor;
    }
  }
  return {
    kind: draft.kind,
    amounts,
    ...(draft.kind === 'bonus' ? { bonusCode: draft.bonusCode } : {}),
    percentFail: numberOf(draft.percentFail),
    description: draft.description,
    validFrom: isoOf(draft.validFrom),
    validTo: isoOf(draft.validTo),
    maxUses: draft.maxUses.trim() === '' ? null : intOf(draft.maxUses),
    maxPerMember: intOf(draft.maxPerMember),
    active: draft.active,
  };
}

function PromotionEditor({ row, onClose }: { row: PromotionRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const bonuses = useQuery({ queryKey: ['bonuses'], queryFn: () => call('bonusesList') });
  const [draft, setDraft] = useState<Draft>(() => draftOf(row));
  const [shown, setShown] = useState(false);
  const problems = validatePromotion(draft, row === null, t);
  const save = useMutation({
    mutationFn: (input: { code: string; body: Body }) => call('promotionPut', { params: { code: input.code }, body: input.body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['promotions'] }),
  });
  const server = useServerProblems(save.error);
  const visible = shown ? problems : {};
  const message = (path: string) => messageOf(visible, server, path);
  const edit = (patch: Partial<Draft>) => {
    save.reset();
    setDraft({ ...draft, ...patch });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (Object.keys(problems).length === 0) save.mutate({ code: row?.code ?? draft.code.toUpperCase(), body: promotionBody(draft) });
  };
  const title = row ? `${t('promotions.edit')} ${row.code}` : t('forms.code.new');
  return (
    <Card title={title}>
      <form className="form grid-form" onSubmit={submit} noValidate aria-label={title}>
        {row === null ? <TextField label={t('promotions.code')} name="code" value={draft.code} maxLength={32} hint={t('forms.code.codeHint')} message={message('code')} onChange={(code) => edit({ code })} /> : null}
        <Field label={t('forms.code.kind')} message={null} hint={draft.kind === 'credit' ? t('forms.code.creditHint') : t('forms.code.bonusHint')}>
          {(aria) => (
            <select {...aria} name="kind" value={draft.kind} onChange={(e) => edit({ kind: e.target.value === 'credit' ? 'credit' : 'bonus' })}>
              <option value="bonus">{t('forms.code.kinds.bonus')}</option>
              <option value="credit">{t('forms.code.kinds.credit')}</option>
            </select>
          )}
        </Field>
        {draft.kind === 'credit' ? (
          <fieldset className="preview">
            <legend>{t('forms.code.amounts')}</legend>
            <p className="muted">{t('forms.code.amountsHint')}</p>
            {CURRENCIES.map((c) => (
              <MoneyInput key={c} name={`amounts.${c}`} label={t('forms.code.amount')} currency={c} value={draft.amounts[c]} error={messageOf(visible, server, `amounts.${c}`)} onChange={(value) => edit({ amounts: { ...draft.amounts, [c]: value } })} />
            ))}
            {message('amounts') && !Object.keys(visible).some((k) => k.startsWith('amounts.')) ? (
              <p className="field-error" role="alert">
                {message('amounts')}
              </p>
            ) : null}
          </fieldset>
        ) : (
          <Field label={t('forms.code.bonus')} message={message('bonusCode')}>
            {(aria) => (
              <select {...aria} name="bonusCode" value={draft.bonusCode} onChange={(e) => edit({ bonusCode: e.target.value })}>
                <option value="">—</option>
                {bonuses.data?.bonuses.map((b) => (
                  <option key={b.code} value={b.code}>
                    {b.code}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <NumberField label={t('promotions.percentFail')} name="percentFail" suffix="%" value={draft.percentFail} message={message('percentFail')} onChange={(percentFail) => edit({ percentFail })} />
        <TextField type="datetime-local" label={t('forms.code.validFrom')} name="validFrom" hint={t('forms.code.timeHint')} value={draft.validFrom} message={message('validFrom')} onChange={(validFrom) => edit({ validFrom })} />
        <TextField type="datetime-local" label={t('forms.code.validTo')} name="validTo" hint={t('forms.code.timeHint')} value={draft.validTo} message={message('validTo')} onChange={(validTo) => edit({ validTo })} />
        <NumberField label={t('forms.code.maxUses')} name="maxUses" hint={t('forms.code.maxUsesHint')} value={draft.maxUses} message={message('maxUses')} onChange={(maxUses) => edit({ maxUses })} />
        <NumberField label={t('forms.code.maxPerMember')} name="maxPerMember" value={draft.maxPerMember} message={message('maxPerMember')} onChange={(maxPerMember) => edit({ maxPerMember })} />
        <CheckField label={t('promotions.active')} checked={draft.active} onChange={(active) => edit({ active })} />
        <fieldset className="preview">
          <legend>{t('forms.code.description')}</legend>
          {CONTENT_LANGUAGES.map((lang) => (
            <TextField key={lang} label={t(`forms.lang.${lang}`)} lang={lang} name={`description.${lang}`} maxLength={500} value={draft.description[lang]} message={message(`description.${lang}`)} onChange={(value) => edit({ description: { ...draft.description, [lang]: value } })} />
          ))}
        </fieldset>
        <div className="row">
          <button type="button" className="btn" onClick={onClose}>
            {t('common.close')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {t('common.save')}
          </button>
        </div>
        <SaveOutcome saved={save.isSuccess} awaiting={isAwaiting(save.data)} showFix={shown && Object.keys(problems).length > 0} error={save.error} />
      </form>
    </Card>
  );
}
