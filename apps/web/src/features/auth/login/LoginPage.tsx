import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from '../../../shared/router';
import type { RuleCode } from '@mw/contract/rules';
import { errorMessage } from '../../../shared/api/errorMessage';
import { setToken } from '../../../shared/auth/token';
import { ruleMessage } from '../../../shared/forms/ruleMessage';
import { FormError, PasswordField, TextField } from '../../../shared/ui/fields';
import { Spinner } from '../../../shared/ui/Spinner';
import { useHydrated } from '../../../shared/ui/useHydrated';
import { AuthHero } from '../AuthHero';
import { useLogin } from './loginApi';
import '../auth.css';

type Field = 'username' | 'password';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const login = useLogin();
  // Prerendered (scripts/prerender.mjs): the fields are read-only (fields.tsx), the box and the
  // button disabled, until the app has taken the form over.
  const hydrated = useHydrated();
  const { state } = useLocation();
  // Right after registering, the phone comes along (RegisterPage's redirect).
  const [username, setUsername] = useState(() => (state as { phone?: string } | null)?.phone ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, RuleCode>>>({});
  const [error, setError] = useState<string | null>(null);

  // Spec: the inline error text is cleared when the member types.
  const edit = (field: Field, value: string) => {
    if (field === 'username') setUsername(value);
    else setPassword(value);
    setError(null);
    setFieldErrors((errors) => ({ ...errors, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const phone = username.trim();
    const errors: Partial<Record<Field, RuleCode>> = {};
    if (!phone) errors.username = 'REQUIRED';
    if (!password) errors.password = 'REQUIRED';
    setFieldErrors(errors);
    if (errors.username || errors.password) return;
    login.login({ username: phone, password }).then(
      ({ token }) => {
        setToken(token, remember);
        navigate('/user', { replace: true });
      },
      (err: unknown) => setError(errorMessage(err)),
    );
  };

  return (
    <div className="page auth-page" data-testid="login-page">
      <AuthHero />
      <form className="card form auth-card" method="post" onSubmit={submit} noValidate data-testid="login-form">
        <div className="auth-card-head">
          <h1 className="auth-title">{t('login.title')}</h1>
          <p className="page-subtitle">{t('login.subtitle')}</p>
        </div>
        <TextField
          label={t('login.username')}
          icon="phone"
          name="username"
          type="text"
          autoComplete="username"
          inputMode="tel"
          placeholder={t('login.usernamePlaceholder')}
          value={username}
          onChange={(e) => edit('username', e.target.value)}
          error={fieldErrors.username ? ruleMessage(fieldErrors.username) : null}
        />
        <PasswordField
          label={t('login.password')}
          name="password"
          autoComplete="current-password"
          placeholder={t('login.passwordPlaceholder')}
          value={password}
          onChange={(e) => edit('password', e.target.value)}
          error={fieldErrors.password ? ruleMessage(fieldErrors.password) : null}
        />
        <div className="auth-row">
          <label className="checkbox">
            <input
              type="checkbox"
              name="remember"
              id="remember-me"
              data-testid="remember-me"
              checked={remember}
              disabled={!hydrated}
              onChange={(e) => setRemember(e.target.checked)}
            />
            {t('login.rememberMe')}
          </label>
          <Link to="/forgot-password" className="auth-link" data-testid="forgot-password-link">
            {t('login.forgotPassword')}
          </Link>
        </div>
        <FormError message={error} testId="login-error" />
        <button type="submit" className="btn btn-primary btn-block" disabled={login.isPending || !hydrated} data-testid="login-submit">
          {login.isPending && <Spinner />}
          {t('login.submit')}
        </button>
      </form>
      <p className="auth-switch">
        {t('login.noAccount')}{' '}
        <Link to="/register" data-testid="register-link">
          {t('login.registerLink')}
        </Link>
      </p>
    </div>
  );
}
