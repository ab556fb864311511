import { useTranslation } from 'react-i18next';
import { Modal } from '../../shared/ui/Modal';
import { SafeHtml } from '../../shared/ui/SafeHtml';
import { PageSpinner } from '../../shared/ui/Spinner';
import { useConditions } from './conditionsApi';

/** The Conditions item of the member menu: every condition text, sanitised. */
export function ConditionsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const conditions = useConditions(open);
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('conditions.title')}
      testId="conditions-modal"
      footer={
        <button type="button" className="btn btn-primary btn-block" onClick={onClose}>
          {t('common.close')}
        </button>
      }
    >
      {conditions.isPending ? (
        <PageSpinner />
      ) : conditions.data && conditions.data.length > 0 ? (
        <ol className="html-list">
          {conditions.data.map((html, index) => (
            <li key={index}>
              <SafeHtml html={html} testId="condition-item" />
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">{t('conditions.empty')}</p>
      )}
    </Modal>
  );
}
