import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../shared/ui/ComingSoon';

export function BonusPage() {
  const { t } = useTranslation();
  return <ComingSoon icon="gift" title={t('placeholder.bonusTitle')} text={t('placeholder.bonusText')} testId="bonus-page" />;
}
