import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from '../../shared/ui/Icon';

export type DepositTab = 'bank' | 'qr' | 'ewallet';

const ICONS: Record<DepositTab, IconName> = { bank: 'bank', qr: 'sparkles', ewallet: 'wallet' };

export const tabId = (tab: DepositTab) => `deposit-tab-${tab}`;
export const panelId = (tab: DepositTab) => `deposit-panel-${tab}`;

/** The ways to deposit as tabs (arrow keys move between them, as in any tab list). */
export function DepositTabs({ tabs, active, onSelect }: { tabs: readonly DepositTab[]; active: DepositTab; onSelect: (tab: DepositTab) => void }) {
  const { t } = useTranslation();
  const list = useRef<HTMLDivElement>(null);

  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    const index = event.key === 'Home' ? 0 : event.key === 'End' ? tabs.length - 1 : (tabs.indexOf(active) + step + tabs.length) % tabs.length;
    if (step === 0 && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    const next = tabs[index];
    if (!next) return;
    onSelect(next);
    list.current?.querySelector<HTMLElement>(`#${tabId(next)}`)?.focus();
  };

  return (
    <div ref={list} className="deposit-tabs" role="tablist" aria-label={t('deposit.channels')} onKeyDown={onKeyDown}>
      {tabs.map((tab) => (
        <button
          key={tab}
          id={tabId(tab)}
          type="button"
          role="tab"
          className="deposit-tab"
          aria-selected={tab === active}
          aria-controls={panelId(tab)}
          tabIndex={tab === active ? 0 : -1}
          onClick={() => onSelect(tab)}
          data-testid={`deposit-tab-${tab}`}
        >
          <Icon name={ICONS[tab]} size={18} />
          <span>{t(`deposit.tab.${tab}`)}</span>
        </button>
      ))}
    </div>
  );
}
