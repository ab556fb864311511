import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from '../../../shared/router';
import { PHONE_LENGTH } from '@mw/contract/constants';
import { checkPassword, checkPasswordsMatch, checkPhone, LAOS_PHONE_MAX, type RuleCode } from '@mw/contract/rules';
import { currentLocale } from '../../../i18n/i18n';
import { otpErrorMessage } from '../otp/otpAttempts';
import { LAOS } from '../../../shared/config';
import { ruleMessage } from '../../../shared/forms/ruleMessage';
import { FormError, PasswordField, TextField } from '../../../shared/ui/fields';
import { Spinner } from '../../../shared/ui/Spinner';
import { toast } from '../../../shared/ui/toast';
import { AuthHero } from '../AuthHero';
import { SandboxSmsNotice } from '../otp/SandboxSmsNotice';
import { useForgotReset, useForgotSend } from './forgotPasswordApi';
import '../auth.css';

type Field = 'phoneNumber' | 'otpCode' | 'newPassword' | 'confirmPassword';

interface OtpSession {
  ref: string;
  token: string;
  sentAt: number;
}

/** The forgot-password flow: the phone step sends a code, the reset step checks the fields and sets the new password. */
function useForgotFlow() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const send = useForgotSend();
  const reset = useForgotReset();
  const [values, setValues] = useState<Record<Field, string>>({ phoneNumber: '', otpCode: '', newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, RuleCode>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [otp, setOtp] = useState<OtpSession | null>(null);

  const change = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setServerError(null);
  };
  const message = (field: Field) => {
    const code = errors[field];
    return code ? ruleMessage(code) : null;
  };

  const requestCode = (event?: FormEvent) => {
    event?.preventDefault();
    const phoneError = checkPhone(values.phoneNumber, LAOS);
    setErrors(phoneError ? { phoneNumber: phoneError } : {});
    if (phoneError) return;
    send.mutate(values.phoneNumber, {
      onSuccess: ({ otpRef, otpToken }) => {
        setOtp({ ref: otpRef, token: otpToken, sentAt: Date.now() });
        setValues((current) => ({ ...current, otpCode: '' }));
      },
      onError: (error) => setServerError(otpErrorMessage(error, currentLocale())),
    });
  };

  const submitReset = (event: FormEvent) => {
    event.preventDefault();
    if (!otp) return;
    const found: Partial<Record<Field, RuleCode>> = {};
    if (values.otpCode === '') found.otpCode = 'REQUIRED';
    const passwordError = checkPassword(values.newPassword);
    if (passwordError) found.newPassword = passwordError;
    if (values.confirmPassword === '') found.confirmPassword = 'REQUIRED';
    else if (checkPasswordsMatch(values.newPassword, values.confirmPassword)) found.confirmPassword = 'PASSWORDS_NOT_MATCH';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    reset.mutate(
      { otpToken: otp.token, otpCode: values.otpCode, newPassword: values.newPassword },
      {
        onSuccess: () => {
          toast.success(t('forgot.success'));
          navigate('/login', { replace: true });
        },
        onError: (error) => setServerError(otpErrorMessage(error, currentLocale())),
      },
    );
  };

  return { values, change, message, serverError, otp, send, reset, requestCode, submitReset };
}

/** Forgot password (added to the spec): phone → OTP by SMS → new password → /login. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const { values, change, message, serverError, otp, send, reset, requestCode, submitReset } = useForgotFlow();

  return (
    <div className="page auth-page" data-testid="forgot-password-page">
      <AuthHero compact />
      <section className="card form auth-card">
        <div className="auth-card-head">
          <h1 className="auth-title">{t('forgot.title')}</h1>
          <p className="page-subtitle">{t('forgot.subtitle')}</p>
        </div>
        {!otp ? (
          <form className="form" onSubmit={requestCode} noValidate data-testid="forgot-step-phone">
            <TextField
              label={t('forgot.phone')}
              icon="phone"
              name="phoneNumber"
              type="tel"
              autoComplete="tel"
              inputMode="numeric"
              maxLength={LAOS ? LAOS_PHONE_MAX : PHONE_LENGTH}
              value={values.phoneNumber}
              onChange={(e) => change('phoneNumber', e.target.value.replace(/\D/g, ''))}
              error={message('phoneNumber')}
            />
            <FormError message={serverError} testId="forgot-error" />
            <button type="submit" className="btn btn-primary btn-block" disabled={send.isPending} data-testid="forgot-send">
              {send.isPending && <Spinner />}
              {t('forgot.send')}
            </button>
          </form>
        ) : (
          <form className="form" onSubmit={submitReset} noValidate data-testid="forgot-step-reset">
            <div className="otp-info">
              <span>{t('forgot.codeSentTo', { phone: values.phoneNumber })}</span>
              <span className="otp-ref" data-testid="otp-ref" data-ref={otp.ref}>
                {t('register.otpRef', { ref: otp.ref })}
              </span>
            </div>
            <SandboxSmsNotice phoneNumber={values.phoneNumber} sentAt={otp.sentAt} />
            <TextField
              label={t('forgot.otpCode')}
              name="otpCode"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={6}
              className="otp-input"
              value={values.otpCode}
              onChange={(e) => change('otpCode', e.target.value.replace(/\D/g, ''))}
              error={message('otpCode')}
            />
            <PasswordField
              label={t('forgot.newPassword')}
              name="newPassword"
              autoComplete="new-password"
              value={values.newPassword}
              onChange={(e) => change('newPassword', e.target.value)}
              error={message('newPassword')}
            />
            <PasswordField
              label={t('forgot.confirmPassword')}
              name="confirmPassword"
              autoComplete="new-password"
              value={values.confirmPassword}
              onChange={(e) => change('confirmPassword', e.target.value)}
              error={message('confirmPassword')}
            />
            <FormError message={serverError} testId="forgot-error" />
            <button type="submit" className="btn btn-primary btn-block" disabled={reset.isPending} data-testid="forgot-submit">
              {reset.isPending && <Spinner />}
              {t('forgot.submit')}
            </button>
            <button type="button" className="btn btn-secondary btn-block" onClick={() => requestCode()} disabled={send.isPending} data-testid="otp-resend">
              {t('register.resend')}
            </button>
          </form>
        )}
      </section>
      <p className="auth-switch">
        <Link to="/login" data-testid="back-to-login">
          {t('forgot.backToLogin')}
        </Link>
      </p>
    </div>
  );
}
