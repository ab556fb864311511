import { focusManager, type QueryClient } from '@tanstack/react-query';
import { walletQueryKey } from '../shared/api/wallet';

/**
 * The app "comes back" on visibility (another app or tab was in front) and on window focus (a
 * desktop window behind another): queries that re-read on focus (the wallet) follow both.
 */
export function watchFocus(): void {
  focusManager.setEventListener((handleFocus) => {
    const changed = () => handleFocus(document.visibilityState === 'visible');
    window.addEventListener('visibilitychange', changed, false);
    const left = () => handleFocus(false);
    window.addEventListener('focus', changed, false);
    window.addEventListener('blur', left, false);
    return () => {
      window.removeEventListener('visibilitychange', changed);
      window.removeEventListener('focus', changed);
      window.removeEventListener('blur', left);
    };
  });
}


/** The wallet (and its coins) is read again whenever the app comes back to the front: a payment may have landed meanwhile. */
export function refetchWalletOnFocus(queryClient: QueryClient): void {
  queryClient.setQueryDefaults(walletQueryKey, { refetchOnWindowFocus: 'always' });
}

// Set up with the member layout (the guest pages re-read nothing on focus).
watchFocus();
