import { useTranslation } from 'react-i18next';
import { useSiteInfo } from '../../shared/api/lookups';
import { LanguageSelect } from '../../shared/ui/LanguageSelect';
import { LogoMark } from '../../shared/ui/Logo';

/** Brand header of the guest auth pages (login, register, forgot password), with the language dropdown. */
export function AuthHero({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const info = useSiteInfo();
  return (
    <header className={compact ? 'auth-hero auth-hero-compact' : 'auth-hero'}>
      <div className="auth-hero-lang">
        <LanguageSelect />
      </div>
      <LogoMark size={compact ? 52 : 68} />
      <p className="auth-brand">{info.data?.name || t('app.name')}</p>
      {!compact && <p className="auth-tagline">{t('app.tagline')}</p>}
    </header>
  );
}
