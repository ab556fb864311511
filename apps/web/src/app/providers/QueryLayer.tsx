import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext, type ReactNode } from 'react';
import { sharedQueryClient } from './queryClient';

/**
 * React Query for the screens that use it, loaded with them (lazyWithQueries.tsx): the page's one
 * client (queryClient.ts), or the one a provider above already gives (tests: AppProviders).
 */
export function QueryLayer({ children }: { children: ReactNode }) {
  const above = useContext(QueryClientContext);
  if (above) return children;
  return <QueryClientProvider client={sharedQueryClient()}>{children}</QueryClientProvider>;
}
