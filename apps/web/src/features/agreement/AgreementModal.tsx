import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AGREEMENT_DELAY_MS } from '@mw/contract/constants';
import { Modal } from '../../shared/ui/Modal';
import { SafeHtml } from '../../shared/ui/SafeHtml';
import { useAgreements } from './agreementApi';
import { agreementAccepted, rememberAgreement } from './agreementStorage';

/**
 * Opens on the member home 1.5 s after entry unless the member already accepted
 * (localStorage `remember-agreement`); confirming remembers it and closes. `waiting`: another sheet
 * the member opened is on screen — the agreement waits until it is closed, never popping over it.
 */
export function AgreementModal({ waiting = false }: { waiting?: boolean }) {
  const { t } = useTranslation();
  const [due, setDue] = useState(false);
  const [accepted, setAccepted] = useState(agreementAccepted);
  const agreements = useAgreements(!accepted);

  useEffect(() => {
    if (accepted) return;
    const timer = setTimeout(() => setDue(true), AGREEMENT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [accepted]);

  const paragraphs = agreements.data ?? [];
  const open = due && !waiting && !accepted && paragraphs.length > 0;

  const confirm = () => {
    rememberAgreement();
    setAccepted(true);
  };

  return (
    <Modal
      open={open}
      title={t('agreement.title')}
      testId="agreement-modal"
      footer={
        <button type="button" className="btn btn-primary btn-block" onClick={confirm} data-testid="agreement-confirm">
          {t('agreement.confirm')}
        </button>
      }
    >
      <div className="agreement-text">
        {paragraphs.map((html, index) => (
          <SafeHtml key={index} html={html} testId="agreement-item" />
        ))}
      </div>
    </Modal>
  );
}
