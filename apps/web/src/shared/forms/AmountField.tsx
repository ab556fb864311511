import { currencySign, unitKey, useMoneyCurrency } from '../format/moneyCurrency';
import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldShell } from '../ui/fields';
import './forms.css';

interface AmountFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type' | 'inputMode' | 'value' | 'onChange'> {
  value: string;
  /** The text as typed; the caller parses it (parseAmountInput) when it checks or sends it. */
  onValueChange: (text: string) => void;
  /** Defaults to "Amount". */
  label?: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  /** The unit written after the number; defaults to the member's currency (baht or kip). */
  unit?: string;
  /** A control inside the field after the unit, such as FillAllButton. */
  action?: ReactNode;
}

/**
 * The money amount of every money modal (deposit, withdraw, transfer, demo top-up): ฿ or ₭ (the member's currency) before the
 * number, the unit and an optional action inside the field, the decimal keypad on phones.
 */
export function AmountField({ value, onValueChange, label, error, hint, unit, action, className, ...input }: AmountFieldProps) {
  const { t } = useTranslation();
  const moneyCurrency = useMoneyCurrency();
  const id = useId();
  return (
    <FieldShell id={id} label={label ?? t('wallet.amount')} error={error} hint={hint}>
      <div className="input-wrap amount-wrap">
        <span className="amount-currency" aria-hidden="true">
          {currencySign(moneyCurrency)}
        </span>
        <input
          id={id}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          className={`input input-amount${className ? ` ${className}` : ''}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          {...input}
        />
        <span className="amount-suffix">
          <span className="amount-unit">{unit ?? t(unitKey(moneyCurrency))}</span>
          {action}
        </span>
      </div>
    </FieldShell>
  );
}

/** "All" inside an amount field: fills in the whole amount available. */
export function FillAllButton({ onClick, disabled, testId }: { onClick: () => void; disabled?: boolean; testId?: string }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="amount-max" disabled={disabled} onClick={onClick} data-testid={testId}>
      {t('wallet.all')}
    </button>
  );
}
