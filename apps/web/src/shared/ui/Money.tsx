import type { Locale } from '@mw/contract/constants';
import { formatMoney } from '../format/money';
import { currencySign, useMoneyCurrency } from '../format/moneyCurrency';
import { useLocale } from '../format/useLocale';

export type MoneySign = '+' | '-' | null;

interface MoneyProps {
  amount: number;
  sign?: MoneySign;
  className?: string;
  testId?: string;
}

/**
 * An amount with 2 decimals and the member's currency sign (฿, or ₭ for LAK members) in the given locale, for lists that read the locale once for all
 * their rows instead of once per amount (see Money).
 */
export function MoneyIn({ amount, sign = null, className, testId, locale }: MoneyProps & { locale: Locale }) {
  const currency = useMoneyCurrency();
  const shown = sign ?? (amount < 0 ? '-' : null);
  const prefix = shown === '+' ? '+' : shown === '-' ? '\u2212' : '';
  return (
    <span className={className ? `money ${className}` : 'money'} data-testid={testId}>
      {prefix}
      <span className="money-sign">{currencySign(currency)}</span>
      {formatMoney(Math.abs(amount), locale)}
    </span>
  );
}

/**
 * A baht amount with 2 decimals in the UI locale. `sign` puts + or − before it (statement rows);
 * the number itself is always written unsigned.
 */
export function Money(props: MoneyProps) {
  const locale = useLocale();
  return <MoneyIn {...props} locale={locale} />;
}

/**
 * A money figure whose data has not arrived: a shimmering bar, never a number (a "฿0.00" while
 * loading reads as money gone). Screen readers hear "loading".
 */
export function MoneySkeleton({ className, testId, label }: { className?: string; testId?: string; label: string }) {
  return (
    <span className={className ? `money-skeleton ${className}` : 'money-skeleton'} role="img" aria-label={label} data-testid={testId} data-loading="true" />
  );
}

/** Money when the amount is known, else its skeleton (test id `<testId>-loading`: the figure's own id appears with the figure). */
export function MaybeMoney({ amount, label, ...props }: Omit<MoneyProps, 'amount'> & { amount: number | null | undefined; label: string }) {
  if (amount === null || amount === undefined) return <MoneySkeleton className={props.className} testId={props.testId && `${props.testId}-loading`} label={label} />;
  return <Money amount={amount} {...props} />;
}
