import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { money } from './format';

/** The two currencies of the ledger. The API also says BAHT for THB (the member app's word): both read as THB. */
export type CurrencyCode = 'THB' | 'LAK';

/** A currency as the API wrote it (THB, BAHT, LAK, null) as one of the ledger's two. */
export function currencyOf(code: string | null | undefined): CurrencyCode {
  return code === 'LAK' ? 'LAK' : 'THB';
}

/** Decimals an operator types and reads: baht to the satang, kip in whole kip. */
export function decimalsOf(currency: CurrencyCode): number {
  return currency === 'LAK' ? 0 : 2;
}

/** The sign written before an amount field. */
export function symbolOf(currency: CurrencyCode): string {
  return currency === 'LAK' ? '₭' : '฿';
}

/**
 * An amount the operator typed, in major units of `currency` (`1,500.50` baht, `50,000` kip), as the
 * number the API takes; null when it is not an amount (empty, negative, letters, too many decimals).
 * Thousands separators and spaces are allowed; nothing is rounded.
 */
export function parseMajor(text: string, currency: CurrencyCode): number | null {
  const clean = text.replace(/[\s,฿₭]/g, '');
  const decimals = decimalsOf(currency);
  const pattern = decimals === 0 ? /^(0|[1-9]\d{0,12})$/ : /^(0|[1-9]\d{0,12})(\.\d{1,2})?$/;
  if (!pattern.test(clean)) return null;
  const value = Number(clean);
  return Number.isFinite(value) ? value : null;
}

/** An amount in major units with its currency: ฿1,500.00, ₭50,000. */
export function Money({ amount, currency }: { amount: number | null | undefined; currency: string | null | undefined }) {
  if (amount === null || amount === undefined) return <span className="money money-unknown">—</span>;
  const code = currencyOf(currency);
  return (
    <span className={`money${amount < 0 ? ' money-negative' : ''}`} data-currency={code}>
      {money(amount, code)}
    </span>
  );
}

/**
 * An amount field in major units of the member's currency: the sign before the box, the right
 * number of decimals, the message under it. `value` is the text as typed; read it with parseMajor.
 */
export function MoneyInput({
  label,
  currency,
  value,
  onChange,
  required,
  min,
  max,
  name,
  error,
}: {
  label: string;
  currency: CurrencyCode;
  value: string;
  onChange: (text: string) => void;
  required?: boolean;
  /** Bounds in major units, checked as the operator types (the server checks them again). */
  min?: number;
  max?: number;
  name?: string;
  /** A message of the form's own (required, the server's refusal) when the amount itself reads well. */
  error?: string | null;
}) {
  const { t } = useTranslation();
  const id = useId();
  const parsed = value.trim() === '' ? null : parseMajor(value, currency);
  let message: string | null = null;
  if (value.trim() !== '' && parsed === null) message = currency === 'LAK' ? t('kit.amountWholeKip') : t('kit.amountBaht');
  else if (parsed !== null && min !== undefined && parsed < min) message = t('kit.amountMin', { amount: money(min, currency) });
  else if (parsed !== null && max !== undefined && parsed > max) message = t('kit.amountMax', { amount: money(max, currency) });
  else if (error) message = error;
  return (
    <div className="field money-field">
      <label htmlFor={id}>
        {label} ({currency})
      </label>
      <div className="money-input">
        <span aria-hidden="true">{symbolOf(currency)}</span>
        <input
          id={id}
          name={name}
          inputMode={currency === 'LAK' ? 'numeric' : 'decimal'}
          autoComplete="off"
          value={value}
          required={required}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${id}-message` : undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
      {message ? (
        <p id={`${id}-message`} className="field-error" role="alert">
          {message}
        </p>
      ) : null}
    </div>
  );
}
