import { formatMoney } from '../format/money';
import { useLocale } from '../format/useLocale';

export type MoneySign = '+' | '-' | null;

/**
 * A baht amount with 2 decimals in the UI locale. `sign` puts + or − before it (statement rows);
 * the number itself is always written unsigned.
 */
export function Money({ amount, sign = null, className, testId }: { amount: number; sign?: MoneySign; className?: string; testId?: string }) {
  const locale = useLocale();
  const shown = sign ?? (amount < 0 ? '-' : null);
  const prefix = shown === '+' ? '+' : shown === '-' ? '\u2212' : '';
  return (
    <span className={className ? `money ${className}` : 'money'} data-testid={testId}>
      {prefix}
      <span className="money-sign">฿</span>
      {formatMoney(Math.abs(amount), locale)}
    </span>
  );
}
