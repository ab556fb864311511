import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountEndpoints } from '@mw/contract/account';
import { callEndpoint } from '../../shared/api/client';
import { profileQueryKey } from '../../shared/api/profile';

/** PUT /api/account/changepwd {oldPassword, newPassword}. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: { oldPassword: string; newPassword: string }) => callEndpoint(accountEndpoints.changePassword, { body }),
  });
}

/** PUT /api/account/bankAccountName {bankCode, bankAccountName} → the updated profile. */
export function useUpdateBankAccountName() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { bankCode: string; bankAccountName: string }) => callEndpoint(accountEndpoints.bankAccountNamePut, { body }),
    onSuccess: (profile) => queryClient.setQueryData(profileQueryKey, profile),
  });
}
