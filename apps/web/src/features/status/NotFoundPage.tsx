import { useTranslation } from 'react-i18next';
import { Link } from '../../shared/router';
import { Icon } from '../../shared/ui/Icon';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <main className="status-page" data-testid="not-found-page">
      <div className="status-card">
        <span className="status-code" aria-hidden="true">
          404
        </span>
        <h1 className="page-title">{t('notFound.title')}</h1>
        <p className="muted">{t('notFound.message')}</p>
        <Link to="/" className="btn btn-primary">
          <Icon name="home" />
          {t('notFound.backHome')}
        </Link>
      </div>
    </main>
  );
}
