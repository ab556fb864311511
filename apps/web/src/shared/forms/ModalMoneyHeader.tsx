import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MaybeMoney } from '../ui/Money';
import './forms.css';

export interface MoneyFigure {
  label: ReactNode;
  /** Baht; `null` or `undefined` while it is loading (shown as a skeleton). */
  amount: number | null | undefined;
  testId?: string;
}

/**
 * The figures at the top of a money modal (wallet balance, limits): one shared strip so deposit,
 * withdraw and transfer read alike. One figure is a single row; more are columns.
 */
export function ModalMoneyHeader({ figures }: { figures: readonly MoneyFigure[] }) {
  const { t } = useTranslation();
  return (
    <dl className={figures.length === 1 ? 'money-header money-header-single' : 'money-header'} style={{ gridTemplateColumns: `repeat(${figures.length}, minmax(0, 1fr))` }}>
      {figures.map((figure, index) => (
        <div key={index}>
          <dt>{figure.label}</dt>
          <dd data-testid={figure.testId}>
            <MaybeMoney amount={figure.amount} label={t('common.loading')} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
