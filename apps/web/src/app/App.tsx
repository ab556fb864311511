import type { QueryClient } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './AppRoutes';
import { AppProviders } from './providers/AppProviders';

/** `queryClient`: the one main.tsx created to start a member's first loads before React. */
export function App({ queryClient }: { queryClient?: QueryClient }) {
  return (
    <BrowserRouter>
      <AppProviders queryClient={queryClient}>
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
  );
}
