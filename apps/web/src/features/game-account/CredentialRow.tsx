import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../shared/ui/CopyButton';
import { Icon } from '../../shared/ui/Icon';

/** A game login value with a copy control; a secret one is masked until shown. */
export function CredentialRow({ label, value, secret = false, testId }: { label: string; value: string; secret?: boolean; testId: string }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(!secret);
  return (
    <div className="credential-row">
      <div className="credential-value">
        <span className="credential-label">{label}</span>
        <span className="credential-text" data-testid={testId} data-value={value}>
          {shown ? value : '•'.repeat(Math.min(value.length, 10))}
        </span>
      </div>
      {secret && (
        <button
          type="button"
          className="icon-button"
          onClick={() => setShown((s) => !s)}
          aria-label={shown ? t('common.hidePassword') : t('common.showPassword')}
          aria-pressed={shown}
          data-testid={`${testId}-toggle`}
        >
          <Icon name={shown ? 'eyeOff' : 'eye'} size={20} />
        </button>
      )}
      <CopyButton value={value} label={t('gameAccount.copy', { label })} testId={`copy-${testId}`} />
    </div>
  );
}
