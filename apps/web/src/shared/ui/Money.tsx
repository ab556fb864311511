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
