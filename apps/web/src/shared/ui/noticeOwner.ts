import { useEffect } from 'react';

/**
 * One deposit, one notice: while a screen that announces its own deposits is open (the deposit
 * modal: its slip, QR, gift and demo forms say what happened), the pushed balance's "deposited"
 * toast stays quiet (features/balance-push/BalancePush.tsx); the figures still follow the push.
 */
let owners = 0;

/** Whether an open screen announces deposits itself. */
export function depositNoticeOwned(): boolean {
  return owners > 0;
}

/** Marks the calling screen, while mounted, as the one that announces deposits. */
export function useOwnDepositNotice(): void {
  useEffect(() => {
    owners += 1;
    return () => {
      owners -= 1;
    };
  }, []);
}
