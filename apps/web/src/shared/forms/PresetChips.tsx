import { useTranslation } from 'react-i18next';
import { formatWhole } from '../format/money';
import { currencySign, useMoneyCurrency } from '../format/moneyCurrency';
import { useLocale } from '../format/useLocale';
import './forms.css';

interface PresetChipsProps {
  amounts: readonly number[];
  /** The amount now in the field, shown pressed when it is one of the presets. */
  selected?: number | null;
  onPick: (amount: number) => void;
  disabled?: boolean;
  /** Each chip gets `${testId}-${amount}`. */
  testId?: string;
}

/** Preset amounts in the member's currency (฿ or ₭) as chips (QR deposits, demo top-up); a chip fills in its amount. */
export function PresetChips({ amounts, selected = null, onPick, disabled, testId }: PresetChipsProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const sign = currencySign(useMoneyCurrency());
  return (
    <div className="amount-presets" role="group" aria-label={t('wallet.presets')}>
      {amounts.map((amount) => (
        <button
          key={amount}
          type="button"
          className="amount-preset"
          aria-pressed={selected === amount}
          onClick={() => onPick(amount)}
          disabled={disabled}
          data-testid={testId ? `${testId}-${amount}` : undefined}
        >
          {sign}
          {formatWhole(amount, locale)}
        </button>
      ))}
    </div>
  );
}
