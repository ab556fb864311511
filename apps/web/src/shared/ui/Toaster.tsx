import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';
import { dismissToast, useToasts } from './toast';

export function Toaster() {
  const { t } = useTranslation();
  const toasts = useToasts();
  return (
    <div className="toaster" aria-live="polite">
      {toasts.map((item) => (
        <div
          key={item.id}
          className={`toast toast-${item.tone}`}
          role={item.tone === 'error' ? 'alert' : 'status'}
          data-testid="toast"
          data-tone={item.tone}
        >
          <Icon name={item.tone === 'error' ? 'alert' : item.tone === 'success' ? 'success' : 'sparkles'} size={20} />
          <span className="toast-text">{item.text}</span>
          <button type="button" className="toast-close" onClick={() => dismissToast(item.id)} aria-label={t('common.close')}>
            <Icon name="close" size={16} />
          </button>
        </div>
      ))}
    </div>
  );
}
