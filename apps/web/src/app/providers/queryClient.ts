import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../shared/api/ApiError';
import { endsSession } from '../../shared/api/client';
import { errorMessage } from '../../shared/api/errorMessage';
import { onSessionEnd } from '../../shared/api/sessionCleanup';
import { toast } from '../../shared/ui/toast';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

/** Session-ending answers already redirect (client.ts); a toast on top would only repeat it. */
function redirects(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'gone' || endsSession(error.code));
}

/**
 * A new client. On a session's end (SessionRedirects) it forgets every query but the lookups
 * (sessionCleanup.ts).
 */
export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.silent || redirects(error)) return;
        toast.error(errorMessage(error));
      },
    }),
    // Mutations report their own errors (inline text, toast or alert as the spec says per screen).
    mutationCache: new MutationCache({}),
    defaultOptions: {
      queries: {
        retry: (failureCount, error) =>
          failureCount < 1 && error instanceof ApiError && (error.kind === 'network' || error.status >= 500),
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
  onSessionEnd(() => client.removeQueries({ predicate: (query) => query.queryKey[0] !== 'lookup' }));
  return client;
}

let shared: QueryClient | null = null;

/**
 * The page's one client: made by the first screen that needs React Query (a member's boot,
 * main.tsx, or the first lazy screen, QueryLayer.tsx) — the guest pages' first screen does not.
 */
export function sharedQueryClient(): QueryClient {
  shared ??= createQueryClient();
  return shared;
}
