import { useTranslation } from 'react-i18next';
import { copyText } from './copy';
import { Icon } from './Icon';

/** An icon button that copies a value and says so in a toast (spec section 8). */
export function CopyButton({ value, label, testId }: { value: string; label?: string; testId?: string }) {
  const { t } = useTranslation();
  const name = label ?? t('common.copy');
  return (
    <button type="button" className="icon-button copy-button" onClick={() => void copyText(value)} aria-label={name} title={name} data-testid={testId}>
      <Icon name="copy" size={20} />
    </button>
  );
}
