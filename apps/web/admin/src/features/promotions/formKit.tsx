import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../shared/api';
import { decimalsOf, parseMajor, type CurrencyCode } from '../../shared/money';
import { ErrorText, Notice } from '../../shared/ui';

/** The ledger's currencies, in the order the forms show them. */
export const CURRENCIES: readonly CurrencyCode[] = ['THB', 'LAK'];

/** The languages members read (th, la, en): banners, code descriptions and refund texts have one each. */
export const CONTENT_LANGUAGES = ['th', 'la', 'en'] as const;
export type ContentLanguage = (typeof CONTENT_LANGUAGES)[number];

/** Field path → message. */
export type Problems = Record<string, string>;

/** Minor units (satang; kip's hundredths) of an amount in major units. Both ledger currencies have 100 minor units. */
export function toMinor(major: number): number {
  return Math.round(major * 100);
}

/** An amount in minor units as the operator types it (1,500.00 baht, 50,000 kip: parseMajor reads it back); '' when there is none. */
export function majorText(minor: number | null | undefined, currency: CurrencyCode): string {
  if (minor === null || minor === undefined || !Number.isFinite(minor)) return '';
  const decimals = decimalsOf(currency);
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: true }).format(minor / 100);
}

/** A typed amount (major units) as minor units; null when empty or not an amount (MoneyInput says why). */
export function minorOf(text: string, currency: CurrencyCode): number | null {
  if (text.trim() === '') return null;
  const major = parseMajor(text, currency);
  return major === null ? null : toMinor(major);
}

/** Whether a typed amount is empty, or reads as an amount. */
export function amountReads(text: string, currency: CurrencyCode): boolean {
  return text.trim() === '' || parseMajor(text, currency) !== null;
}

/** A whole number typed in a box, or NaN. */
export function intOf(text: string): number {
  return /^\s*-?\d+\s*$/.test(text) ? Number(text) : Number.NaN;
}

/** A number typed in a box (decimals allowed), or NaN. */
export function numberOf(text: string): number {
  return /^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : Number.NaN;
}

/**
 * The fields a save's refusal named (400 KEY_MISSING / KEY_INVALID answer `fields: [{path, code}]`),
 * each with the sentence for its code; the error as a whole still shows (ErrorText).
 */
export function useServerProblems(error: unknown): Problems {
  const { t } = useTranslation();
  if (!(error instanceof ApiError)) return {};
  const out: Problems = {};
  for (const field of error.fields) {
    const path = field.path === '' ? 'form' : field.path;
    out[path] = field.code === 'missing' || field.code === 'required' ? t('forms.err.required') : field.code === 'unknown' ? t('forms.err.unknown') : t('forms.err.invalid');
  }
  return out;
}

/** The message of a field: the form's own check first, else what the server said about it (or a field inside it). */
export function messageOf(problems: Problems, server: Problems, path: string): string | null {
  if (problems[path]) return problems[path];
  if (server[path]) return server[path];
  const inner = Object.keys(server).find((key) => key.startsWith(`${path}.`));
  return inner ? (server[inner] ?? null) : null;
}

/** A labelled box with its message under it (aria-invalid and aria-describedby when there is one). */
export function Field({
  label,
  message,
  children,
  hint,
}: {
  label: string;
  message: string | null | undefined;
  hint?: string;
  children: (props: { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined }) => ReactNode;
}) {
  const id = useId();
  const describedBy = [message ? `${id}-message` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': message ? true : undefined, 'aria-describedby': describedBy })}
      {hint ? (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      ) : null}
      {message ? (
        <p id={`${id}-message`} className="field-error" role="alert">
          {message}
        </p>
      ) : null}
    </div>
  );
}

/** A text box with its label and message. */
export function TextField({ label, value, onChange, message, hint, maxLength, name, type = 'text', lang }: { label: string; value: string; onChange: (text: string) => void; message?: string | null; hint?: string; maxLength?: number; name?: string; type?: 'text' | 'url' | 'datetime-local'; lang?: string }) {
  return (
    <Field label={label} message={message} hint={hint}>
      {(aria) => <input {...aria} type={type} name={name} lang={lang} value={value} maxLength={maxLength} autoComplete="off" onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}

/** A number box (typed as text, read with intOf / numberOf) with its label and message. */
export function NumberField({ label, value, onChange, message, hint, name, suffix }: { label: string; value: string; onChange: (text: string) => void; message?: string | null; hint?: string; name?: string; suffix?: string }) {
  return (
    <Field label={suffix ? `${label} (${suffix})` : label} message={message} hint={hint}>
      {(aria) => <input {...aria} name={name} inputMode="decimal" autoComplete="off" value={value} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}

/** A tick box with its label. */
export function CheckField({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="field check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

/** Plain text as the HTML a member's screen renders: a heading (optional) and a paragraph, escaped. */
export function htmlOf(title: string, text: string): string {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const heading = title.trim() ? `<h3>${escape(title.trim())}</h3>` : '';
  return heading + (text.trim() ? `<p>${escape(text.trim())}</p>` : '');
}

/** Stored HTML as the form's plain fields: the first heading's text and the rest's text (blocks joined by a space). */
export function textsOf(html: string): { title: string; text: string } {
  if (!html) return { title: '', text: '' };
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const heading = doc.body.querySelector('h1, h2, h3, h4, h5, h6');
  const title = heading?.textContent?.trim() ?? '';
  heading?.remove();
  const blocks = [...doc.body.children].map((el) => el.textContent?.trim() ?? '').filter(Boolean);
  const loose = [...doc.body.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent?.trim() ?? '').filter(Boolean);
  return { title, text: [...loose, ...blocks].join(' ') };
}

/** Whether the form's plain fields keep everything of stored HTML (links, bold… would be dropped by a save). */
export function keepsHtml(html: string): boolean {
  const { title, text } = textsOf(html);
  return htmlOf(title, text) === html.replace(/>\s+</g, '><').trim() || html.trim() === '';
}

/** An image address the member's screen may load: https://… or a path of this site (/banners/…); empty: no image. */
export function imageProblem(url: string): boolean {
  const value = url.trim();
  if (value === '') return false;
  if (value.startsWith('/')) return value.startsWith('//') || /[\s\\]/.test(value);
  try {
    const parsed = new URL(value);
    return parsed.protocol !== 'https:' || /\s/.test(value);
  } catch {
    return true;
  }
}

/**
 * What a form says under its buttons once it was sent or refused: saved (or waiting for a second
 * person), "fix the fields marked" while the operator's input has problems, the server's refusal.
 */
export function SaveOutcome({ saved, awaiting = false, showFix, error }: { saved: boolean; awaiting?: boolean; showFix: boolean; error: unknown }) {
  const { t } = useTranslation();
  return (
    <>
      {saved ? <Notice>{awaiting ? t('settings.awaiting') : t('common.saved')}</Notice> : null}
      {showFix ? (
        <p className="notice notice-error" role="alert">
          {t('forms.err.fix')}
        </p>
      ) : null}
      <ErrorText error={error} />
    </>
  );
}
