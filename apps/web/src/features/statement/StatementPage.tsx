import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../shared/ui/ComingSoon';

export function StatementPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon icon="statement" title={t('placeholder.statementTitle')} text={t('placeholder.statementText')} testId="statement-page" />
  );
}
