import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from './Icon';

/** A finished-looking page for screens that arrive in a later release. */
export function ComingSoon({ icon, title, text, testId }: { icon: IconName; title: string; text: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <section className="page coming-soon" data-testid={testId}>
      <div className="coming-soon-art" aria-hidden="true">
        <Icon name={icon} size={44} />
      </div>
      <h1 className="page-title">{title}</h1>
      <p className="muted">{text}</p>
      <span className="badge badge-gold">{t('common.comingSoon')}</span>
    </section>
  );
}
