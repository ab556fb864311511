import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api';
import { errorText } from '../i18n/errors';

export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-head">
        <h1 id="page-title">{title}</h1>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

export function Card({ title, children, className }: { title?: string; children: ReactNode; className?: string }) {
  return (
    <section className={`card${className ? ` ${className}` : ''}`}>
      {title ? <h2>{title}</h2> : null}
      {children}
    </section>
  );
}

/** An error in the operator's words: the code's sentence (i18n/errors.*.ts), never the raw code (it stays in a data attribute for support). */
export function errorMessage(error: unknown, fallback: string): string {
  const code = error instanceof ApiError ? error.code : 'UNKNOWN';
  return errorText(code) ?? fallback;
}

export function ErrorText({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (!error) return null;
  const code = error instanceof ApiError ? error.code : 'UNKNOWN';
  return (
    <p className="notice notice-error" role="alert" data-code={code}>
      {errorMessage(error, t('common.errorUnknown'))}
    </p>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <p className="notice notice-ok" role="status">
      {children}
    </p>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = ['PENDING', 'SUCCESS', 'FAILED', 'active', 'inactive'] as const;
  const label = (known as readonly string[]).includes(status) ? t(`common.statuses.${status as (typeof known)[number]}`) : status;
  return <span className={`badge badge-${status.toLowerCase()}`}>{label}</span>;
}
