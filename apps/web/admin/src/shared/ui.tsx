import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api';

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

/** An error as the operator reads it: the role refusal in words, anything else with its code. */
export function ErrorText({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (!error) return null;
  const code = error instanceof ApiError ? error.code : 'UNKNOWN';
  return (
    <p className="notice notice-error" role="alert">
      {code === 'FORBIDDEN_ROLE' || code === 'FORBIDDEN' ? t('common.forbidden') : t('common.error', { code })}
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
