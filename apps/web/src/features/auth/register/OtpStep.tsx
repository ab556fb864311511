import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ruleMessage } from '../../../shared/forms/ruleMessage';
import { FormError, TextField } from '../../../shared/ui/fields';
import { Spinner } from '../../../shared/ui/Spinner';
import { SandboxSmsNotice } from '../otp/SandboxSmsNotice';
import type { StepProps } from './stepProps';

interface OtpStepProps extends StepProps {
  otpRef: string;
  sentAt: number;
  resending: boolean;
  onResend: () => void;
}

export function OtpStep({ form, errors, serverError, pending, onChange, onSubmit, onBack, otpRef, sentAt, resending, onResend }: OtpStepProps) {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="form" onSubmit={submit} noValidate data-testid="register-step-otp">
      <div className="otp-info">
        <span>{t('register.otpSentTo', { phone: form.phone })}</span>
        <span className="otp-ref" data-testid="otp-ref" data-ref={otpRef}>
          {t('register.otpRef', { ref: otpRef })}
        </span>
      </div>
      <SandboxSmsNotice phoneNumber={form.phone} sentAt={sentAt} />
      <TextField
        label={t('register.otpCode')}
        name="otpCode"
        type="text"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={6}
        className="otp-input"
        placeholder={t('register.otpCodePlaceholder')}
        value={form.otpCode}
        onChange={(e) => onChange('otpCode', e.target.value.replace(/\D/g, ''))}
        error={errors.otpCode ? ruleMessage(errors.otpCode) : null}
      />
      <FormError message={serverError} testId="register-error" />
      <button type="submit" className="btn btn-primary btn-block" disabled={pending} data-testid="otp-verify">
        {pending && <Spinner />}
        {t('register.verify')}
      </button>
      <div className="btn-row">
        <button type="button" className="btn btn-ghost" onClick={onBack} data-testid="register-back">
          {t('common.back')}
        </button>
        <button type="button" className="btn btn-secondary" onClick={onResend} disabled={resending} data-testid="otp-resend">
          {resending && <Spinner />}
          {t('register.resend')}
        </button>
      </div>
    </form>
  );
}
