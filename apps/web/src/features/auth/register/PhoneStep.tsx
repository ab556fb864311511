import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PHONE_LENGTH } from '@mw/contract/constants';
import { LAOS_PHONE_MAX } from '@mw/contract/rules';
import { LAOS } from '../../../shared/config';
import { ruleMessage } from '../../../shared/forms/ruleMessage';
import { FormError, TextField } from '../../../shared/ui/fields';
import { Spinner } from '../../../shared/ui/Spinner';
import type { StepProps } from './stepProps';

export function PhoneStep({ form, errors, serverError, pending, onChange, onSubmit }: StepProps) {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="form" onSubmit={submit} noValidate data-testid="register-step-phone">
      <TextField
        label={t('register.phone')}
        icon="phone"
        name="username"
        type="tel"
        autoComplete="tel"
        inputMode="numeric"
        maxLength={LAOS ? LAOS_PHONE_MAX : PHONE_LENGTH}
        placeholder={t('register.phonePlaceholder')}
        value={form.phone}
        onChange={(e) => onChange('phone', e.target.value.replace(/\D/g, ''))}
        error={errors.phone ? ruleMessage(errors.phone) : null}
        hint={LAOS ? t('register.phoneHintLaos') : t('register.phoneHint')}
      />
      <FormError message={serverError} testId="register-error" />
      <button type="submit" className="btn btn-primary btn-block" disabled={pending} data-testid="register-next">
        {pending && <Spinner />}
        {t('common.next')}
      </button>
    </form>
  );
}
