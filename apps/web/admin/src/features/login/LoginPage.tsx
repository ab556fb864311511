import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { useToken } from '../../app/useOperator';
import { changeLocale, currentLocale, type AdminLocale } from '../../i18n/i18n';
import { ApiError } from '../../shared/api';
import { errorMessage } from '../../shared/ui';
import { call } from '../../shared/client';
import { setToken } from '../../shared/session';

/**
 * Sign-in in two steps: username and password (POST /api/admin/login → a challenge), then the
 * authenticator's 6-digit code (POST /api/admin/login/totp → the session token and the operator).
 */
export function LoginPage() {
  const { t } = useTranslation();
  const token = useToken();
  const queryClient = useQueryClient();
  const [challenge, setChallenge] = useState<string | null>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (token) return <Navigate to="/" replace />;

  const first = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await call('adminLogin', { body: { username: username.trim(), password } });
      setChallenge(answer.challenge);
      setPassword('');
    } catch (failure) {
      setError(failure instanceof ApiError && failure.code === 'WRONG_CREDENTIAL' ? t('login.wrong') : errorMessage(failure, t('common.errorUnknown')));
    } finally {
      setBusy(false);
    }
  };

  const second = async (event: FormEvent) => {
    event.preventDefault();
    if (!challenge) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await call('adminLoginTotp', { body: { challenge, code: code.trim() } });
      queryClient.setQueryData(['admin', 'me', answer.token], answer.operator);
      setToken(answer.token);
    } catch (failure) {
      const known = failure instanceof ApiError ? failure.code : 'UNKNOWN';
      if (failure instanceof ApiError && (failure.status === 404 || failure.status === 410 || known.includes('CHALLENGE'))) {
        setChallenge(null);
        setError(t('login.expired'));
      } else setError(failure instanceof ApiError && failure.status === 401 ? t('login.wrongCode') : errorMessage(failure, t('common.errorUnknown')));
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="login" id="main">
      <div className="login-card card">
        <div className="login-top">
          <h1>{challenge ? t('login.codeTitle') : t('login.title')}</h1>
          <label className="lang">
            <span className="sr-only">{t('app.language')}</span>
            <select value={currentLocale()} onChange={(event) => void changeLocale(event.target.value as AdminLocale)}>
              <option value="th" lang="th">ไทย</option>
              <option value="en" lang="en">English</option>
            </select>
          </label>
        </div>
        {error ? (
          <p className="notice notice-error" role="alert">
            {error}
          </p>
        ) : null}
        {challenge ? (
          <form onSubmit={(event) => void second(event)} className="form">
            <p>{t('login.codeHint')}</p>
            <label className="field">
              <span>{t('login.code')}</span>
              <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required autoFocus value={code} onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))} />
            </label>
            <div className="row">
              <button type="button" className="btn" onClick={() => setChallenge(null)}>
                {t('login.back')}
              </button>
              <button type="submit" className="btn btn-primary" disabled={busy || code.length !== 6}>
                {t('login.submit')}
              </button>
            </div>
          </form>
        ) : (
          <form onSubmit={(event) => void first(event)} className="form">
            <label className="field">
              <span>{t('login.username')}</span>
              <input name="username" autoComplete="username" required autoFocus value={username} onChange={(e) => setUsername(e.target.value)} />
            </label>
            <label className="field">
              <span>{t('login.password')}</span>
              <input name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
            </label>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {t('login.next')}
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
