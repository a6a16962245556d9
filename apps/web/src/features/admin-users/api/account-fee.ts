/**
 * An account's own fee (record 189), set by an admin on the account's user card (GET and PUT
 * /api/admin/users/:id/fee). Its key is under the finance feature's (`admin-finance`), so saving the plans'
 * fees on the finance page refreshes it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountFeeInput } from '@tunedrop/shared/schemas/finance';
import { client, unwrap } from '../../../lib/api';

const accountFeeKey = (userId: string) => ['admin-finance', 'account-fee', userId] as const;

export function useAccountFee(userId: string, enabled = true) {
  return useQuery({
    queryKey: accountFeeKey(userId),
    queryFn: () => unwrap(client.admin.users[':id'].fee.$get({ param: { id: userId } })),
    enabled,
  });
}

export function useSaveAccountFee(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: AccountFeeInput) =>
      unwrap(client.admin.users[':id'].fee.$put({ param: { id: userId }, json })),
    onSuccess: (data) => queryClient.setQueryData(accountFeeKey(userId), data),
  });
}
