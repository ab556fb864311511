import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from '../../../shared/router';
import { LAOS_CURRENCIES, REGISTER_REDIRECT_MS, STORAGE_KEYS, type Currency } from '@mw/contract/constants';
import { ApiError } from '../../../shared/api/ApiError';
import { currentLocale } from '../../../i18n/i18n';
import { otpErrorMessage } from '../otp/otpAttempts';
import { config, LAOS } from '../../../shared/config';
import { isRuleCode } from '../../../shared/forms/ruleMessage';
import { readStorage, removeStorage, writeStorage } from '../../../shared/storage';
import { Icon } from '../../../shared/ui/Icon';
import { toast } from '../../../shared/ui/toast';
import { AuthHero } from '../AuthHero';
import { BankStep } from './BankStep';
import { OtpStep } from './OtpStep';
import { PhoneStep } from './PhoneStep';
import { ProfileStep } from './ProfileStep';
import {
  registerOtpQuery,
  useCreateAccount,
  useSendOtp,
  useValidateRegistration,
  useVerifyOtp,
} from './registerApi';
import {
  fieldForPath,
  hasErrors,
  initialRegisterForm,
  onlyBankStepComplaints,
  parseVerifiedOtp,
  toRegistration,
  validateBankStep,
  validatePhoneStep,
  validateProfileStep,
  type FieldErrors,
  type RegisterField,
  type RegisterForm,
  type VerifiedOtp,
} from './registerForm';
import { Stepper } from './Stepper';
import '../auth.css';

/** Steps 0..3 of spec section 4, then 4 = registered (redirecting to /login). */
type Step = 0 | 1 | 2 | 3 | 4;

interface OtpSession {
  ref: string;
  token: string;
  sentAt: number;
}

function isCurrency(value: string): value is Currency {
  return (LAOS_CURRENCIES as readonly string[]).includes(value);
}

/** Field errors the server attached (`fields: [{path, code}]`) mapped onto the wizard's inputs. */
function serverFieldErrors(error: unknown): FieldErrors {
  const errors: FieldErrors = {};
  if (!(error instanceof ApiError)) return errors;
  for (const { path, code } of error.fields) {
    const field = fieldForPath(path);
    if (field && isRuleCode(code)) errors[field] = code;
  }
  return errors;
}

export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const queryCode = searchParams.get('code');

  const [step, setStep] = useState<Step>(0);
  const [otpSkipped, setOtpSkipped] = useState(false);
  const [otp, setOtp] = useState<OtpSession | null>(null);
  // The code this tab verified (phone and token): registration must carry the token.
  const [verified, setVerified] = useState<VerifiedOtp | null>(() => parseVerifiedOtp(readStorage('session', STORAGE_KEYS.registerOtp)));
  const [form, setForm] = useState<RegisterForm>(() =>
    initialRegisterForm(queryCode ?? readStorage('local', STORAGE_KEYS.inviterCode) ?? ''),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);

  const sendOtp = useSendOtp();
  const verifyOtp = useVerifyOtp();
  const validate = useValidateRegistration();
  const create = useCreateAccount();

  // The inviter code of an invite link (?code=) is remembered for a later visit.
  useEffect(() => {
    if (queryCode) writeStorage('local', STORAGE_KEYS.inviterCode, queryCode);
  }, [queryCode]);

  useEffect(() => {
    if (step !== 4) return;
    // The login form then carries the phone just registered (router state: nothing stored).
    const timer = setTimeout(() => navigate('/login', { replace: true, state: { phone: form.phone } }), REGISTER_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [step, navigate, form.phone]);

  const goTo = (next: Step) => {
    setErrors({});
    setServerError(null);
    setStep(next);
  };

  const change = (field: RegisterField, value: string) => {
    setForm((current) => {
      if (field === 'currency') return isCurrency(value) ? { ...current, currency: value } : current;
      return { ...current, [field]: value };
    });
    setErrors((current) => ({ ...current, [field]: undefined }));
    setServerError(null);
  };

  const fail = (error: unknown) => {
    setErrors(serverFieldErrors(error));
    setServerError(otpErrorMessage(error, currentLocale()));
  };

  const skipOtp = () => {
    setOtpSkipped(true);
    setOtp(null);
    goTo(2);
  };

  const remember = (next: VerifiedOtp | null) => {
    setVerified(next);
    if (next) writeStorage('session', STORAGE_KEYS.registerOtp, JSON.stringify(next));
    else removeStorage('session', STORAGE_KEYS.registerOtp);
  };
  const verifiedToken = verified && verified.phone === form.phone ? verified.token : null;

  const startOtp = (onSent?: () => void) =>
    sendOtp.mutate({ phoneNumber: form.phone, otpToken: verifiedToken ?? undefined }, {
      onSuccess: (answer) => {
        if (answer.code === 'OTP_VERIFIED') {
          remember({ phone: form.phone, token: answer.otpToken });
          skipOtp();
          return;
        }
        setOtp({ ref: answer.otpRef, token: answer.otpToken, sentAt: Date.now() });
        setOtpSkipped(false);
        setForm((current) => ({ ...current, otpCode: '' }));
        onSent?.();
      },
      onError: fail,
    });

  const submitPhone = async () => {
    const found = validatePhoneStep(form, LAOS);
    setErrors(found);
    setServerError(null);
    if (hasErrors(found)) return;
    let otpEnabled: boolean;
    try {
      otpEnabled = (await queryClient.fetchQuery(registerOtpQuery)).registerOTP;
    } catch (error) {
      fail(error);
      return;
    }
    if (!otpEnabled) {
      skipOtp();
      return;
    }
    startOtp(() => goTo(1));
  };

  const submitOtp = () => {
    if (!otp) return;
    if (form.otpCode === '') {
      setErrors({ otpCode: 'REQUIRED' });
      return;
    }
    const token = otp.token;
    verifyOtp.mutate(
      { otpToken: token, otpCode: form.otpCode },
      {
        onSuccess: () => {
          remember({ phone: form.phone, token });
          goTo(2);
        },
        onError: fail,
      },
    );
  };

  const resendOtp = () => {
    setServerError(null);
    startOtp(() => toast.info(t('register.resent')));
  };

  const submitProfile = () => {
    const found = validateProfileStep(form, config.minAge);
    setErrors(found);
    setServerError(null);
    if (hasErrors(found)) return;
    validate.mutate(toRegistration(form, LAOS), {
      onSuccess: () => goTo(3),
      onError: (error) => {
        // The bank step is still empty here: complaints about it are for later, not a reason to stop.
        if (error instanceof ApiError && error.kind === 'server' && onlyBankStepComplaints(error.code, error.fields)) {
          goTo(3);
          return;
        }
        fail(error);
      },
    });
  };

  const submitBank = () => {
    const found = validateBankStep(form);
    setErrors(found);
    setServerError(null);
    if (hasErrors(found)) return;
    create.mutate(toRegistration(form, LAOS, verifiedToken), {
      onSuccess: () => {
        remember(null);
        goTo(4);
      },
      onError: fail,
    });
  };

  const common = { form, errors, serverError, onChange: change };

  if (step === 4) {
    return (
      <div className="page auth-page" data-testid="register-page">
        <AuthHero compact />
        <section className="card form register-success" role="status" data-testid="register-success">
          <span className="register-success-icon">
            <Icon name="success" size={40} />
          </span>
          <h1 className="auth-title">{t('register.successTitle')}</h1>
          <p className="muted">{t('register.successMessage')}</p>
        </section>
      </div>
    );
  }

  return (
    <div className="page auth-page" data-testid="register-page">
      <AuthHero compact />
      <section className="card form auth-card">
        <div className="auth-card-head">
          <h1 className="auth-title">{t('register.title')}</h1>
          <p className="step-progress" data-testid="register-progress">
            {t('register.stepOf', { current: step + 1, total: 4 })}
          </p>
        </div>
        <Stepper step={step} otpSkipped={otpSkipped} />
        {step === 0 && (
          <PhoneStep
            {...common}
            pending={sendOtp.isPending}
            onSubmit={() => void submitPhone()}
            onBack={() => navigate('/login')}
          />
        )}
        {step === 1 && otp && (
          <OtpStep
            {...common}
            pending={verifyOtp.isPending}
            onSubmit={submitOtp}
            onBack={() => goTo(0)}
            otpRef={otp.ref}
            sentAt={otp.sentAt}
            resending={sendOtp.isPending}
            onResend={resendOtp}
          />
        )}
        {step === 2 && <ProfileStep {...common} pending={validate.isPending} onSubmit={submitProfile} onBack={() => goTo(0)} />}
        {step === 3 && <BankStep {...common} pending={create.isPending} onSubmit={submitBank} onBack={() => goTo(2)} />}
      </section>
      <p className="auth-switch">
        {t('register.haveAccount')} <Link to="/login">{t('register.loginLink')}</Link>
      </p>
    </div>
  );
}
