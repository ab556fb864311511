import { useMutation } from '@tanstack/react-query';
import { accountEndpoints } from '@mw/contract/account';
import { callEndpoint } from '../../../shared/api/client';

/** POST /api/password/forgot/send {phoneNumber} → {otpRef, otpToken}. */
export function useForgotSend() {
  return useMutation({
    mutationFn: (phoneNumber: string) => callEndpoint(accountEndpoints.forgotSend, { body: { phoneNumber } }),
  });
}

/** POST /api/password/forgot/reset {otpToken, otpCode, newPassword}. */
export function useForgotReset() {
  return useMutation({
    mutationFn: (body: { otpToken: string; otpCode: string; newPassword: string }) =>
      callEndpoint(accountEndpoints.forgotReset, { body }),
  });
}
