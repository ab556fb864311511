import { useTranslation } from 'react-i18next';
import { Icon } from '../../shared/ui/Icon';

/** Shown when the service is shut down (lookup/active false, or any 410 `gone`). */
export function TerminatedPage() {
  const { t } = useTranslation();
  return (
    <main className="status-page" data-testid="terminated-page">
      <div className="status-card">
        <span className="coming-soon-art" aria-hidden="true">
          <Icon name="shield" size={44} />
        </span>
        <h1 className="page-title">{t('terminated.title')}</h1>
        <p className="muted">{t('terminated.message')}</p>
      </div>
    </main>
  );
}
