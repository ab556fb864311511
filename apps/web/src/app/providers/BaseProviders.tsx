import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { setupI18n } from '../../i18n/i18n';
import { AlertHost } from '../../shared/ui/AlertHost';
import { GlobalLoader } from '../../shared/ui/GlobalLoader';
import { Toaster } from '../../shared/ui/Toaster';
import { SessionRedirects } from './SessionRedirects';

/** Everything a screen may rely on but React Query (QueryLayer.tsx); must sit inside a router (SessionRedirects navigates). */
export function BaseProviders({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={setupI18n()}>
      <SessionRedirects />
      <GlobalLoader />
      {children}
      <Toaster />
      <AlertHost />
    </I18nextProvider>
  );
}
