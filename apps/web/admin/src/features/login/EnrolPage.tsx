import { useMutation, useQuery } from '@tanstack/react-query';
import { toDataURL } from 'qrcode';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api } from '../../shared/api';
import { ErrorText } from '../../shared/ui';

/** The one-time enrolment link (/admin/enrol/<token>): set a password and add the TOTP key to an authenticator. */
export function EnrolPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const info = useQuery({ queryKey: ['enrol', token], queryFn: () => api<{ otpauth?: string; otpauthUri?: string; secret?: string; username?: string }>('GET', `/api/admin/enrol/${encodeURIComponent(token)}`), retry: false });
  const uri = info.data?.otpauth ?? info.data?.otpauthUri ?? '';
  const secret = info.data?.secret ?? (/[?&]secret=([A-Z2-7]+)/i.exec(uri)?.[1] ?? '');
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    if (uri) void toDataURL(uri, { margin: 1, width: 220 }).then(setQr);
  }, [uri]);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const finish = useMutation({ mutationFn: () => api('POST', `/api/admin/enrol/${encodeURIComponent(token)}`, { body: { password, code } }) });
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
              <input type="password" autoComplete="new-password" required minLength={10} value={password} onChange={(e) => setPassword(e.target.value)} />
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
