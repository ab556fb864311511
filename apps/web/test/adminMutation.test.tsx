import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { useMutation } from '../admin/src/shared/mutation';

// The back office's useMutation: a double click sends one call; another row's call is not held up.
describe('back office mutations', () => {
  function setup() {
    const calls: string[] = [];
    const pending: Array<() => void> = [];
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(
      () =>
        useMutation({
          mutationFn: (row: { id: string }) => {
            calls.push(row.id);
            return new Promise<void>((resolve) => pending.push(resolve));
          },
        }),
      { wrapper },
    );
    return { result, calls, pending };
  }

  it('drops the same call while it is in flight, lets another through, and allows it again once settled', async () => {
    const { result, calls, pending } = setup();
    act(() => {
      result.current.mutate({ id: 'a' });
      result.current.mutate({ id: 'a' });
      result.current.mutate({ id: 'b' });
    });
    await waitFor(() => expect(calls).toEqual(['a', 'b']));
    act(() => {
      for (const resolve of pending.splice(0)) resolve();
    });
    await waitFor(() => expect(result.current.isPending).toBe(false));
    act(() => result.current.mutate({ id: 'a' }));
    await waitFor(() => expect(calls).toEqual(['a', 'b', 'a']));
  });
});
