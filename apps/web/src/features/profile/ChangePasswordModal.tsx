import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../shared/api/errorMessage';
import { showAlert } from '../../shared/ui/alerts';
import { FormError, PasswordField } from '../../shared/ui/fields';
import { Modal } from '../../shared/ui/Modal';
import { Spinner } from '../../shared/ui/Spinner';
import { useChangePassword } from './profileApi';

const EMPTY = { oldPassword: '', newPassword: '', confirmPassword: '' };

/**
 * Spec section 5: all three fields required (silently nothing when one is empty); new and
 * confirmation must be equal. Errors and success are alerts (spec section 8).
 */
export function ChangePasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const change = useChangePassword();
  const [values, setValues] = useState(EMPTY);
  const [mismatch, setMismatch] = useState(false);

  const close = () => {
    setValues(EMPTY);
    setMismatch(false);
    onClose();
  };

  const set = (field: keyof typeof EMPTY, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setMismatch(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { oldPassword, newPassword, confirmPassword } = values;
    if (!oldPassword || !newPassword || !confirmPassword) return;
    if (newPassword !== confirmPassword) {
      setMismatch(true);
      return;
    }
    change.mutate(
      { oldPassword, newPassword },
      {
        onSuccess: () => {
          close();
          void showAlert({ tone: 'success', title: t('common.saved') });
        },
        onError: (error) => void showAlert({ tone: 'error', title: t('common.errorTitle'), message: errorMessage(error) }),
      },
    );
  };

  return (
    <Modal open={open} onClose={close} title={t('changePassword.title')} testId="change-password-modal" size="sm">
      <form className="form" onSubmit={submit} noValidate data-testid="change-password-form">
        <PasswordField
          label={t('changePassword.oldPassword')}
          name="oldPassword"
          autoComplete="current-password"
          value={values.oldPassword}
          onChange={(e) => set('oldPassword', e.target.value)}
        />
        <PasswordField
          label={t('changePassword.newPassword')}
          name="newPassword"
          autoComplete="new-password"
          value={values.newPassword}
          onChange={(e) => set('newPassword', e.target.value)}
        />
        <PasswordField
          label={t('changePassword.confirmPassword')}
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={(e) => set('confirmPassword', e.target.value)}
        />
        <FormError message={mismatch ? t('changePassword.passwordsNotEqual') : null} testId="change-password-error" />
        <button type="submit" className="btn btn-primary btn-block" disabled={change.isPending} data-testid="change-password-submit">
          {change.isPending && <Spinner />}
          {t('changePassword.submit')}
        </button>
      </form>
    </Modal>
  );
}
