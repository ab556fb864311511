import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BalanceEvent } from '@mw/contract/balance-push';
import { banksQuery } from '../../shared/api/banks';
import { useToken } from '../../shared/auth/token';
import { bankName } from '../../shared/format/bankName';
import { formatMoney } from '../../shared/format/money';
import { currencySign, useMoneyCurrency } from '../../shared/format/moneyCurrency';
import { useLocale } from '../../shared/format/useLocale';
import { depositNoticeOwned } from '../../shared/ui/noticeOwner';
import { toast } from '../../shared/ui/toast';
import { openBalanceSocket, type BalanceSocketState } from './balanceSocket';
import { withdrawalNotice } from './withdrawalNotice';

/**
 * Which pushed changes get a toast: money that arrived or left from outside the member's own
 * action on this screen. A transfer, a game's result, a withdrawal request or a wheel prize only
 * update the figures (the member did it, and its own screen says so).
 */
const TOASTS = {
  deposit: 'balancePush.deposit',
  bonus: 'balancePush.bonus',
  withdrawal_paid: 'balancePush.withdrawalPaid',
  withdrawal_returned: 'balancePush.withdrawalReturned',
  refund: 'balancePush.credited',
  invite: 'balancePush.credited',
  adjustment: 'balancePush.credited',
} as const;

/**
 * The member's balances pushed by the server (mounted by the member layout, loaded after the
 * first render): the cached wallet follows every change, and money that arrives shows a toast
 * ("฿500.00 deposited"). Renders only a hidden marker of the socket's state.
 */
export default function BalancePush() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const token = useToken();
  const locale = useLocale();
  const currency = useMoneyCurrency();
  const [state, setState] = useState<BalanceSocketState>('connecting');
  // The toast of an event, in the language and currency of the moment it arrives.
  const announce = useRef<(event: BalanceEvent) => void>(() => undefined);
  useEffect(() => {
    announce.current = (event) => {
      if (event.amount === undefined || event.amount <= 0) return;
      // The deposit screen that is open says so itself: one deposit, one notice.
      if (event.reason === 'deposit' && depositNoticeOwned()) return;
      const key = (TOASTS as Partial<Record<string, (typeof TOASTS)[keyof typeof TOASTS]>>)[event.reason];
      if (!key) return;
      const amount = `${currencySign(currency)}${formatMoney(event.amount, locale)}`;
      // A withdrawal paid names the account (the bank in the UI language), one refused says why.
      if (event.account || event.note) {
        void queryClient
          .fetchQuery(banksQuery)
          .catch(() => [])
          .then((banks) => {
            const names = new Map(banks.map((bank) => [bank.code, bankName(bank, locale)]));
            const text = withdrawalNotice(event, amount, { game: () => undefined, bank: (code) => names.get(code) });
            if (text) toast[event.reason === 'withdrawal_returned' ? 'info' : 'success'](text);
            else toast.success(t(key, { amount }));
          });
        return;
      }
      toast.success(t(key, { amount }));
    };
  }, [t, currency, locale, queryClient]);

  useEffect(() => {
    if (!token) return undefined;
    return openBalanceSocket(token, queryClient, { onEvent: (event) => announce.current(event), onState: setState });
  }, [token, queryClient]);

  return <span hidden data-testid="balance-push" data-state={state} />;
}
