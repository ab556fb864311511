import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isEnglishOnlyName, normaliseAccountName } from '@mw/contract/rules';
import { errorMessage } from '../../shared/api/errorMessage';
import { copyText } from '../../shared/ui/copy';
import { TextField } from '../../shared/ui/fields';
import { Modal } from '../../shared/ui/Modal';
import { Spinner } from '../../shared/ui/Spinner';
import { toast } from '../../shared/ui/toast';
import { useUpdateBankAccountName } from './profileApi';

interface Props {
  open: boolean;
  bankCode: string;
  onClose: () => void;
}

/**
 * Correction of a bank account name to English (KTB, TMB, BBL): upper-cased as typed; non-empty
 * English letters and spaces, else the requiredEngLangMsg toast; after saving the name is copied.
 */
export function EditBankAccountNameModal({ open, bankCode, onClose }: Props) {
  const { t } = useTranslation();
  const update = useUpdateBankAccountName();
  const [name, setName] = useState('');

  const close = () => {
    setName('');
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const bankAccountName = normaliseAccountName(name);
    if (!isEnglishOnlyName(bankAccountName)) {
      toast.error(t('bankName.requiredEngLangMsg'));
      return;
    }
    update.mutate(
      { bankCode, bankAccountName },
      {
        onSuccess: (profile) => {
          close();
          void copyText(profile.bankAccountName || bankAccountName);
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };

  return (
    <Modal open={open} onClose={close} title={t('bankName.title')} testId="bank-account-name-modal" size="sm">
      <form className="form" onSubmit={submit} noValidate data-testid="bank-account-name-form">
        <TextField
          label={t('bankName.label')}
          name="bankAccountName"
          autoComplete="name"
          autoCapitalize="characters"
          value={name}
          onChange={(e) => setName(e.target.value.toUpperCase())}
          hint={t('bankName.hint')}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={update.isPending} data-testid="bank-account-name-submit">
          {update.isPending && <Spinner />}
          {t('bankName.submit')}
        </button>
      </form>
    </Modal>
  );
}
