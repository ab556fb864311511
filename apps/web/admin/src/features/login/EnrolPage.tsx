import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { call } from '../../shared/client';
import { ErrorText } from '../../shared/ui';
import { useMutation } from '../../shared/mutation';

/** The one-time enrolment link (/admin/enrol/<token>): set a password and add the TOTP key to an authenticator. */
export function EnrolPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  // Shown once by the server (a second GET answers 409 ENROLMENT_SHOWN): kept for the page's life.
  const info = useQuery({
    queryKey: ['enrol', token],
    queryFn: () => call('adminEnrolment', { params: { token } }),
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const secret = info.data?.secret ?? '';
  const qr = info.data?.qrDataUrl ?? null;
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const finish = useMutation({ mutationFn: () => call('adminEnrolmentFinish', { params: { token }, body: { password, code } }) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    finish.mutate();
  };
  return (
    <main className="login" id="main">
      <div className="login-card card">
        <h1>{t('enrol.title')}</h1>
        {info.isError ? <p className="notice notice-error" role="alert">{t('enrol.invalid')}</p> : null}
        {finish.isSuccess ? (
          <p className="notice notice-ok" role="status">
            {t('enrol.done')} <Link to="/login">{t('login.submit')}</Link>
          </p>
        ) : info.data ? (
          <form className="form" onSubmit={submit}>
            <p>{t('enrol.scan')}</p>
            {qr ? <img src={qr} width={220} height={220} alt={t('enrol.key', { secret })} /> : null}
            <p className="mono">{t('enrol.key', { secret })}</p>
            <label className="field">
              <span>{t('enrol.password')}</span>
              <input type="password" autoComplete="new-password" required minLength={12} value={password} onChange={(e) => setPassword(e.target.value)} />
            </label>
            <label className="field">
              <span>{t('enrol.code')}</span>
              <input inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required value={code} onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))} />
            </label>
            <ErrorText error={finish.error} />
            <button className="btn btn-primary" type="submit" disabled={finish.isPending}>
              {t('enrol.submit')}
            </button>
          </form>
        ) : null}
      </div>
    </main>
  );
}
