import { useTranslation } from 'react-i18next';

export function Spinner({ size = 28 }: { size?: number }) {
  return <span className="spinner" style={{ width: size, height: size }} aria-hidden="true" />;
}

/** Placeholder while a page or its data loads. */
export function PageSpinner() {
  const { t } = useTranslation();
  return (
    <div className="page-spinner" role="status" data-testid="page-spinner">
      <Spinner size={36} />
      <span className="visually-hidden">{t('common.loading')}</span>
    </div>
  );
}
