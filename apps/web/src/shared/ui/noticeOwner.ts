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

/**
 * Marks the calling screen, while mounted and `owns` holds, as the one that announces deposits. A
 * screen that waits for the push to learn of the deposit (the QR tab) does not own it: the push's
 * toast is then its one notice.
 */
export function useOwnDepositNotice(owns = true): void {
  useEffect(() => {
    if (!owns) return undefined;
    owners += 1;
    return () => {
      owners -= 1;
    };
  }, [owns]);
}
