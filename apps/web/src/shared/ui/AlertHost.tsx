import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { closeAlert, useAlerts } from './alerts';
import { Icon } from './Icon';

// The dialog's code loads with the first alert: not part of the first download.
const Modal = lazy(() => import('./Modal').then((m) => ({ default: m.Modal })));

/** Shows queued alerts one at a time. */
export function AlertHost() {
  const { t } = useTranslation();
  const current = useAlerts()[0];
  if (!current) return null;
  const close = () => closeAlert(current.id);
  return (
    <Suspense fallback={null}>
      <Modal
        open
        size="sm"
        testId="alert-dialog"
        onClose={close}
        title={
          <span className={`alert-title alert-${current.tone}`}>
            <Icon name={current.tone === 'error' ? 'alert' : 'success'} />
            {current.title}
          </span>
        }
        footer={
          <button type="button" className="btn btn-primary btn-block" onClick={close} data-testid="alert-ok">
            {t('common.confirm')}
          </button>
        }
      >
        {current.message && (
          <p className="alert-message" data-testid="alert-message">
            {current.message}
          </p>
        )}
      </Modal>
    </Suspense>
  );
}
