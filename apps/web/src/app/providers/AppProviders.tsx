import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { createQueryClient } from './queryClient';
import { BaseProviders } from './BaseProviders';

/**
 * BaseProviders with a query client of its own above every screen (tests, and anything rendered
 * outside the app's lazy screens). The app itself (App.tsx) uses BaseProviders: its screens bring
 * React Query with their code (lazyWithQueries.tsx).
 */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <BaseProviders>{children}</BaseProviders>
    </QueryClientProvider>
  );
}
