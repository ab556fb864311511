import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { can, type Capability } from '../shared/roles';
import { useOperator } from './useOperator';

/** A screen the role cannot use says so instead of showing buttons the server would refuse. */
export function RequireCapability({ capability, children }: { capability: Capability; children: ReactNode }) {
  const { t } = useTranslation();
  const { data: operator } = useOperator();
  if (!operator) return null;
  if (!can(operator.role, capability)) {
    return (
      <p className="notice notice-error" role="alert">
        {t('common.forbidden')}
      </p>
    );
  }
  return children;
}
