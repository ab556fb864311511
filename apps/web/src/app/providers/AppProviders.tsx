import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { setupI18n } from '../../i18n/i18n';
import { AlertHost } from '../../shared/ui/AlertHost';
import { GlobalLoader } from '../../shared/ui/GlobalLoader';
import { Toaster } from '../../shared/ui/Toaster';
import { createQueryClient } from './queryClient';
import { SessionRedirects } from './SessionRedirects';

/** Everything a screen may rely on; must sit inside a router (SessionRedirects navigates). */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <I18nextProvider i18n={setupI18n()}>
      <QueryClientProvider client={client}>
        <SessionRedirects />
        <GlobalLoader />
        {children}
        <Toaster />
        <AlertHost />
      </QueryClientProvider>
    </I18nextProvider>
  );
}
