import { useQuery } from '@tanstack/react-query';
import { sandboxSmsResponseSchema } from '@mw/contract/account';
import { request } from '../../../shared/api/client';

const POLL_MS = 2_000;
const POLL_FOR_MS = 20_000;

/**
 * GET /api/sandbox/sms?phoneNumber=… exists only while the server uses its sandbox SMS provider
 * (404 otherwise, and then nothing is shown). Polled for a short while after each send, because
 * the message may land a moment after the send call answers.
 */
export function useSandboxSms(phoneNumber: string, sentAt: number) {
  return useQuery({
    queryKey: ['sandbox-sms', phoneNumber, sentAt],
    queryFn: ({ signal }) =>
      request('/api/sandbox/sms', sandboxSmsResponseSchema, { query: { phoneNumber }, signal, background: true }),
    enabled: phoneNumber !== '',
    retry: false,
    staleTime: 0,
    gcTime: 0,
    meta: { silent: true },
    refetchInterval: (query) => (query.state.status === 'error' || Date.now() - sentAt > POLL_FOR_MS ? false : POLL_MS),
  });
}
