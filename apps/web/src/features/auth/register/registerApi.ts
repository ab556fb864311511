import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { accountEndpoints, type Registration } from '@mw/contract/account';
import { lookupEndpoints } from '@mw/contract/lookups';
import { callEndpoint } from '../../../shared/api/client';

const LOOKUP_STALE_MS = 10 * 60_000;

/** GET /api/lookup/registerOTP: whether registration asks for a phone OTP. */
export const registerOtpQuery = queryOptions({
  queryKey: ['lookup', 'registerOTP'],
  queryFn: ({ signal }) => callEndpoint(lookupEndpoints.lookupRegisterOTP, { signal, background: true }),
  staleTime: LOOKUP_STALE_MS,
});

export function useRegisterOtpFlag() {
  return useQuery(registerOtpQuery);
}

/** GET /api/lookup/sources [{code, description}]. */
export function useSources() {
  return useQuery({
    queryKey: ['lookup', 'sources'],
    queryFn: ({ signal }) => callEndpoint(lookupEndpoints.lookupSources, { signal, background: true }),
    staleTime: LOOKUP_STALE_MS,
  });
}

export { useBanks } from '../../../shared/api/banks';

/**
 * POST /api/otp/send {phoneNumber, otpToken?} → {otpRef, otpToken, code: OTP_SENT | OTP_VERIFIED}.
 * The token this tab already verified for the phone goes along: the server then answers
 * OTP_VERIFIED (no new SMS) while it can still register the phone.
 */
export function useSendOtp() {
  return useMutation({
    mutationFn: ({ phoneNumber, otpToken }: { phoneNumber: string; otpToken?: string | undefined }) =>
      callEndpoint(accountEndpoints.otpSend, { body: otpToken ? { phoneNumber, otpToken } : { phoneNumber } }),
  });
}

/** POST /api/otp/verify {otpToken, otpCode} → {code: OTP_CODE_VALID}. */
export function useVerifyOtp() {
  return useMutation({
    mutationFn: (body: { otpToken: string; otpCode: string }) => callEndpoint(accountEndpoints.otpVerify, { body }),
  });
}

/** POST /api/account/validate: every registration rule, nothing created. */
export function useValidateRegistration() {
  return useMutation({
    mutationFn: (body: Registration) => callEndpoint(accountEndpoints.accountValidate, { body }),
  });
}

/** POST /api/account: creates the member. */
export function useCreateAccount() {
  return useMutation({
    mutationFn: (body: Registration) => callEndpoint(accountEndpoints.accountCreate, { body }),
  });
}
