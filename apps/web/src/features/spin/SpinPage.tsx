import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../shared/ui/ComingSoon';

export function SpinPage() {
  const { t } = useTranslation();
  return <ComingSoon icon="spin" title={t('placeholder.spinTitle')} text={t('placeholder.spinText')} testId="spin-page" />;
}
