import { useTranslation } from 'react-i18next';
import type { WalletResponse } from '@mw/contract/wallet';
import { Modal } from '../../shared/ui/Modal';
import { Money } from '../../shared/ui/Money';
import { Spinner } from '../../shared/ui/Spinner';

interface Props {
  invite: WalletResponse['invite'];
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Confirms receiving the invite bonus: the amount, the success and fail percentages and the condition. */
export function InviteBonusDialog({ invite, pending, onConfirm, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      size="sm"
      onClose={onClose}
      title={t('home.inviteConfirm.title')}
      testId="invite-bonus-dialog"
      footer={
        <div className="btn-row">
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn btn-primary" onClick={onConfirm} disabled={pending} data-testid="invite-bonus-confirm">
            {pending && <Spinner />}
            {t('home.receive')}
          </button>
        </div>
      }
    >
      <div className="invite-confirm">
        <Money amount={invite.amount} className="invite-confirm-amount" />
        <dl className="invite-confirm-rates">
          <div>
            <dt>{t('home.inviteConfirm.success')}</dt>
            {/* What the percentages mean in money: the turnover to play, the balance that ends it early. */}
            <dd>
              <Money amount={Math.round(invite.amount * invite.success) / 100} /> ({invite.success}%)
            </dd>
          </div>
          <div>
            <dt>{t('home.inviteConfirm.fail')}</dt>
            <dd>
              <Money amount={Math.round(invite.amount * invite.fail) / 100} /> ({invite.fail}%)
            </dd>
          </div>
        </dl>
        <p className="muted">{t('home.inviteConfirm.condition', { success: invite.success, fail: invite.fail })}</p>
      </div>
    </Modal>
  );
}
