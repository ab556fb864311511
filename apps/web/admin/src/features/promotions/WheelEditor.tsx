import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call, type CallInput } from '../../shared/client';
import { money } from '../../shared/format';
import { MoneyInput, type CurrencyCode } from '../../shared/money';
import { useMutation } from '../../shared/mutation';
import { Card, ErrorText } from '../../shared/ui';
import { isAwaiting } from './awaiting';
import { CheckField, CURRENCIES, NumberField, TextField, amountReads, intOf, majorText, messageOf, minorOf, SaveOutcome, useServerProblems, type Problems } from './formKit';

type Body = NonNullable<CallInput<'spinwheelPut'>['body']>;

/** A slice as the form holds it: the amount typed in major units of the wheel's currency. */
interface SliceDraft {
  /** The row's identity in the form (codes may be edited). */
  key: number;
  code: string;
  label: string;
  bgColor: string;
  textColor: string;
  htmlDescription: string;
  weight: string;
  prizeName: string;
  prizeAmount: string;
}

interface WheelDraft {
  name: string;
  active: boolean;
  depositPerCoin: string;
  couponTtlDays: string;
  slices: SliceDraft[];
}

let nextKey = 0;
const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const num = (value: unknown): number => (typeof value === 'number' ? value : Number(value ?? Number.NaN));

/** The stored wheel (the answer's `wheel`, or null: none yet) as the form's boxes. */
export function wheelDraftOf(wheel: unknown, currency: CurrencyCode): WheelDraft {
  const w = wheel && typeof wheel === 'object' ? (wheel as Record<string, unknown>) : null;
  const slices = Array.isArray(w?.slices) ? (w.slices as unknown[]) : [];
  return {
    name: str(w?.name, 'Golden Wheel'),
    active: w ? w.active === true : false,
    depositPerCoin: majorText(w ? num(w.depositPerCoin) : 0, currency),
    couponTtlDays: String(w ? num(w.couponTtlDays) : 7),
    slices: slices.map((raw) => {
      const s = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
      const prize = s.prize && typeof s.prize === 'object' ? (s.prize as Record<string, unknown>) : {};
      nextKey += 1;
      return {
        key: nextKey,
        code: str(s.code),
        label: str(s.label),
        bgColor: str(s.bgColor, '#f5c451'),
        textColor: str(s.textColor, '#1d1b3a'),
        htmlDescription: str(s.htmlDescription),
        weight: String(num(s.weight)),
        prizeName: str(prize.name),
        prizeAmount: majorText(num(prize.amount), currency),
      };
    }),
  };
}

/** Each slice's chance (weight ÷ total), or null where a weight is not a positive whole number. */
export function chances(slices: readonly SliceDraft[]): Array<number | null> {
  const weights = slices.map((s) => intOf(s.weight));
  const valid = weights.every((w) => w >= 1);
  const total = weights.reduce((sum, w) => sum + (w >= 1 ? w : 0), 0);
  return weights.map((w) => (valid && total > 0 ? w / total : null));
}

/** Field → problem (paths as the server names them: slices.2.weight). */
export function validateWheel(draft: WheelDraft, currency: CurrencyCode, t: TFunction): Problems {
  const problems: Problems = {};
  if (!draft.name.trim()) problems.name = t('forms.err.required');
  else if (draft.name.trim().length > 80) problems.name = t('forms.err.tooLong', { max: 80 });
  if (!amountReads(draft.depositPerCoin, currency) || draft.depositPerCoin.trim() === '') problems.depositPerCoin = t('forms.err.required');
  const ttl = intOf(draft.couponTtlDays);
  if (!(ttl >= 1 && ttl <= 365)) problems.couponTtlDays = t('forms.err.range', { min: 1, max: 365 });
  if (draft.slices.length < 2 || draft.slices.length > 16) problems.slices = t('forms.wheel.sliceCount');
  const codes = new Map<string, number>();
  draft.slices.forEach((s, i) => {
    const at = (field: string) => `slices.${i}.${field}`;
    if (!/^[A-Z0-9_]{1,24}$/.test(s.code)) problems[at('code')] = s.code ? t('forms.wheel.codeFormat') : t('forms.err.required');
    else if (codes.has(s.code)) problems[at('code')] = t('forms.wheel.codeTaken');
    codes.set(s.code, i);
    if (!s.label.trim()) problems[at('label')] = t('forms.err.required');
    else if (s.label.trim().length > 40) problems[at('label')] = t('forms.err.tooLong', { max: 40 });
    const weight = intOf(s.weight);
    if (!(weight >= 1 && weight <= 1_000_000)) problems[at('weight')] = t('forms.err.range', { min: 1, max: '1,000,000' });
    if (!s.prizeName.trim()) problems[at('prize.name')] = t('forms.err.required');
    else if (s.prizeName.trim().length > 80) problems[at('prize.name')] = t('forms.err.tooLong', { max: 80 });
    if (s.prizeAmount.trim() === '') problems[at('prize.amount')] = t('forms.err.required');
    else if (!amountReads(s.prizeAmount, currency)) problems[at('prize.amount')] = t('forms.err.invalid');
  });
  return problems;
}

/** The body the server takes: amounts in minor units of the wheel's currency. */
export function wheelBody(draft: WheelDraft, currency: CurrencyCode): Body {
  return {
    name: draft.name.trim(),
    active: draft.active,
    depositPerCoin: minorOf(draft.depositPerCoin, currency) ?? 0,
    couponTtlDays: intOf(draft.couponTtlDays),
    slices: draft.slices.map((s) => ({
      code: s.code,
      label: s.label.trim(),
      bgColor: s.bgColor,
      textColor: s.textColor,
      htmlDescription: s.htmlDescription,
      weight: intOf(s.weight),
      prize: { name: s.prizeName.trim(), amount: minorOf(s.prizeAmount, currency) ?? 0 },
    })),
  };
}

const percent = (chance: number | null) => (chance === null ? '—' : `${(chance * 100).toFixed(chance < 0.001 ? 3 : 1)}%`);

/** The wheel as a member sees it (equal slices, their colours and labels), each slice with its chance. */
export function WheelPreview({ slices, title }: { slices: readonly SliceDraft[]; title: string }) {
  const size = 280;
  const centre = size / 2;
  const radius = centre - 6;
  const odds = chances(slices);
  const segment = (Math.PI * 2) / Math.max(1, slices.length);
  const point = (angle: number, r: number) => `${(centre + r * Math.cos(angle)).toFixed(2)} ${(centre + r * Math.sin(angle)).toFixed(2)}`;
  const summary = slices.map((s, i) => `${s.label || s.code}: ${percent(odds[i] ?? null)}`).join(', ');
  return (
    <figure className="wheel-preview">
      <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} role="img" aria-label={`${title}. ${summary}`} data-testid="wheel-preview">
        <circle cx={centre} cy={centre} r={radius + 4} fill="#1d1b3a" />
        {slices.map((s, i) => {
          const start = -Math.PI / 2 + i * segment;
          const end = start + segment;
          const middle = start + segment / 2;
          const large = segment > Math.PI ? 1 : 0;
          const d = slices.length === 1 ? `M ${point(start, radius)} A ${radius} ${radius} 0 1 1 ${point(start - 0.0001, radius)} Z` : `M ${centre} ${centre} L ${point(start, radius)} A ${radius} ${radius} 0 ${large} 1 ${point(end, radius)} Z`;
          const [x, y] = point(middle, radius * 0.64).split(' ');
          const rotate = (middle * 180) / Math.PI;
          return (
            <g key={s.key} data-testid="wheel-slice">
              <path d={d} fill={s.bgColor} stroke="#1d1b3a" strokeWidth={1} />
              <text x={x} y={y} fill={s.textColor} fontSize={12} fontWeight={700} textAnchor="middle" transform={`rotate(${rotate.toFixed(1)} ${x} ${y})`}>
                <tspan x={x} dy="-0.2em">
                  {s.label}
                </tspan>
                <tspan x={x} dy="1.2em" fontSize={10} fontWeight={400} data-testid="wheel-slice-chance">
                  {percent(odds[i] ?? null)}
                </tspan>
              </text>
            </g>
          );
        })}
        <circle cx={centre} cy={centre} r={14} fill="#f5c451" stroke="#1d1b3a" strokeWidth={2} />
      </svg>
    </figure>
  );
}

/** The wheels, one per currency: the currency chosen above the form. */
export function Wheels() {
  const { t } = useTranslation();
  const [currency, setCurrency] = useState<CurrencyCode>('THB');
  return (
    <>
      <p className="muted">{t('promotions.seeds')}</p>
      <div className="tabs" role="group" aria-label={t('promotions.currency')}>
        {CURRENCIES.map((c) => (
          <button key={c} type="button" className={`tab${currency === c ? ' selected' : ''}`} aria-pressed={currency === c} onClick={() => setCurrency(c)}>
            {t('forms.wheel.of', { currency: c })}
          </button>
        ))}
      </div>
      <WheelLoader key={currency} currency={currency} />
    </>
  );
}

function WheelLoader({ currency }: { currency: CurrencyCode }) {
  const wheel = useQuery({ queryKey: ['spinwheel', currency], queryFn: () => call('spinwheelGet', { query: { currency } }) });
  if (!wheel.data) return <ErrorText error={wheel.error} />;
  return <WheelEditor currency={currency} stored={wheel.data.wheel} />;
}

interface SliceRowProps {
  slice: SliceDraft;
  index: number;
  currency: CurrencyCode;
  /** This slice's chance from the weights (null while a weight does not read). */
  chance: number | null;
  message: (path: string) => string | null;
  canRemove: boolean;
  onEdit: (patch: Partial<SliceDraft>) => void;
  onRemove: () => void;
}

/** One slice of the wheel as a table row: code, label, colours, weight, its chance, the prize, remove. */
function WheelSliceRow({ slice: s, index: i, currency, chance, message, canRemove, onEdit, onRemove }: SliceRowProps) {
  const { t } = useTranslation();
    const n = i + 1;
    const cell = (field: string, label: string, value: string, onChange: (text: string) => void, width: number) => {
      const problem = message(`slices.${i}.${field}`);
      const id = `wheel-${currency}-${s.key}-${field}`;
      return (
        <td>
          <input id={id} aria-label={t('forms.wheel.cell', { field: label, n })} size={width} value={value} aria-invalid={problem ? true : undefined} aria-describedby={problem ? `${id}-m` : undefined} onChange={(e) => onChange(e.target.value)} />
          {problem ? (
            <p id={`${id}-m`} className="field-error" role="alert">
              {problem}
            </p>
          ) : null}
        </td>
      );
    };
    const amountProblem = message(`slices.${i}.prize.amount`);
    return (
      <tr data-testid="wheel-row">
        {cell('code', t('forms.wheel.code'), s.code, (code) => onEdit({ code: code.toUpperCase() }), 8)}
        {cell('label', t('forms.wheel.label'), s.label, (label) => onEdit({ label }), 10)}
        <td className="row">
          <input type="color" aria-label={t('forms.wheel.cell', { field: t('forms.wheel.bgColor'), n })} value={s.bgColor} onChange={(e) => onEdit({ bgColor: e.target.value })} />
          <input type="color" aria-label={t('forms.wheel.cell', { field: t('forms.wheel.textColor'), n })} value={s.textColor} onChange={(e) => onEdit({ textColor: e.target.value })} />
        </td>
        {cell('weight', t('forms.wheel.weight'), s.weight, (weight) => onEdit({ weight }), 6)}
        <td className="mono" data-testid="wheel-chance">
          {percent(chance)}
        </td>
        {cell('prize.name', t('forms.wheel.prizeName'), s.prizeName, (prizeName) => onEdit({ prizeName }), 10)}
        <td>
          <div className="money-input">
            <span aria-hidden="true">{currency === 'LAK' ? '₭' : '฿'}</span>
            <input
              aria-label={t('forms.wheel.cell', { field: t('forms.wheel.prizeAmount', { currency }), n })}
              inputMode={currency === 'LAK' ? 'numeric' : 'decimal'}
              size={10}
              value={s.prizeAmount}
              aria-invalid={amountProblem ? true : undefined}
              onChange={(e) => onEdit({ prizeAmount: e.target.value })}
            />
          </div>
          {amountProblem ? (
            <p className="field-error" role="alert">
              {amountProblem}
            </p>
          ) : (
            <small className="muted">{amountReads(s.prizeAmount, currency) && s.prizeAmount.trim() !== '' ? (minorOf(s.prizeAmount, currency) === 0 ? t('forms.wheel.noPrize') : money((minorOf(s.prizeAmount, currency) ?? 0) / 100, currency)) : null}</small>
          )}
        </td>
        <td>
          <button type="button" className="btn" disabled={!canRemove} onClick={onRemove}>
            {t('forms.wheel.remove', { n })}
          </button>
        </td>
      </tr>
    );
}

export function WheelEditor({ currency, stored }: { currency: CurrencyCode; stored: unknown }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<WheelDraft>(() => wheelDraftOf(stored, currency));
  const [shown, setShown] = useState(false);
  const problems = validateWheel(draft, currency, t);
  const save = useMutation({
    mutationFn: (body: Body) => call('spinwheelPut', { query: { currency }, body }),
    // A wheel over the caps answers 202 awaiting-approval: the wheel shown stays the one in force.
    onSuccess: (answer) => (isAwaiting(answer) ? undefined : queryClient.setQueryData(['spinwheel', currency], answer)),
  });
  const server = useServerProblems(save.error);
  const visible = shown ? problems : {};
  const message = (path: string) => messageOf(visible, server, path);
  const edit = (patch: Partial<WheelDraft>) => {
    save.reset();
    setDraft({ ...draft, ...patch });
  };
  const editSlice = (index: number, patch: Partial<SliceDraft>) => edit({ slices: draft.slices.map((s, i) => (i === index ? { ...s, ...patch } : s)) });
  const odds = chances(draft.slices);
  const total = draft.slices.reduce((sum, s) => sum + Math.max(0, intOf(s.weight) || 0), 0);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (Object.keys(problems).length === 0) save.mutate(wheelBody(draft, currency));
  };
  const title = t('forms.wheel.of', { currency });
  const addSlice = () => {
    nextKey += 1;
    edit({ slices: [...draft.slices, { key: nextKey, code: `S${draft.slices.length + 1}`, label: '', bgColor: draft.slices.length % 2 === 0 ? '#f5c451' : '#2b2f6b', textColor: draft.slices.length % 2 === 0 ? '#1d1b3a' : '#ffffff', htmlDescription: '', weight: '1', prizeName: '', prizeAmount: '' }] });
  };
  return (
    <Card title={title}>
      <form className="form" onSubmit={submit} noValidate aria-label={title}>
        <div className="wheel-layout">
          <div className="grid-form wheel-fields">
            <TextField label={t('promotions.nameField')} name="name" maxLength={80} value={draft.name} message={message('name')} onChange={(name) => edit({ name })} />
            <MoneyInput label={t('forms.wheel.depositPerCoin')} name="depositPerCoin" currency={currency} value={draft.depositPerCoin} error={message('depositPerCoin')} onChange={(depositPerCoin) => edit({ depositPerCoin })} />
            <NumberField label={t('forms.wheel.couponTtlDays')} name="couponTtlDays" value={draft.couponTtlDays} message={message('couponTtlDays')} onChange={(couponTtlDays) => edit({ couponTtlDays })} />
            <CheckField label={t('promotions.active')} checked={draft.active} onChange={(active) => edit({ active })} />
          </div>
          <WheelPreview slices={draft.slices} title={t('forms.wheel.preview')} />
        </div>
        <div className="table-wrap" role="region" aria-label={t('forms.wheel.slices')} tabIndex={0}>
          <table className="table wheel-slices">
            <caption className="sr-only">{t('forms.wheel.slices')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('forms.wheel.code')}</th>
                <th scope="col">{t('forms.wheel.label')}</th>
                <th scope="col">{t('forms.wheel.colours')}</th>
                <th scope="col">{t('forms.wheel.weight')}</th>
                <th scope="col">{t('forms.wheel.chance')}</th>
                <th scope="col">{t('forms.wheel.prizeName')}</th>
                <th scope="col">{t('forms.wheel.prizeAmount', { currency })}</th>
                <th scope="col">{t('common.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {draft.slices.map((s, i) => (
                <WheelSliceRow
                  key={s.key}
                  slice={s}
                  index={i}
                  currency={currency}
                  chance={odds[i] ?? null}
                  message={message}
                  canRemove={draft.slices.length > 2}
                  onEdit={(patch) => editSlice(i, patch)}
                  onRemove={() => edit({ slices: draft.slices.filter((_, j) => j !== i) })}
                />
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={3}>
                  {t('forms.wheel.total')}
                </th>
                <td className="mono">{total}</td>
                <td className="mono">{odds.every((o) => o !== null) && draft.slices.length > 0 ? '100%' : '—'}</td>
                <td colSpan={3} />
              </tr>
            </tfoot>
          </table>
        </div>
        {message('slices') ? (
          <p className="field-error" role="alert">
            {message('slices')}
          </p>
        ) : null}
        <p className="muted">{t('forms.wheel.hint')}</p>
        <div className="row">
          <button type="button" className="btn" disabled={draft.slices.length >= 16} onClick={addSlice}>
            {t('forms.wheel.add')}
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
