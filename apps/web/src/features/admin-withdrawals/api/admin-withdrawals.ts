/** Withdrawal Management API: the list (with decrypted payment details), approve, reject. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WithdrawalTab } from '@tunedrop/shared/schemas/admin-withdrawals';
import { client, unwrap } from '../../../lib/api';

export const adminWithdrawalsKey = ['admin-withdrawals'] as const;

export function useAdminWithdrawals(params: { q: string; tab: WithdrawalTab; page: number }) {
  return useQuery({
    queryKey: [...adminWithdrawalsKey, params],
    queryFn: () =>
      unwrap(
        client.admin.withdrawals.$get({ query: { q: params.q, tab: params.tab, page: String(params.page) } }),
      ),
    placeholderData: keepPreviousData,
    // Decrypted payment details: do not keep them around after the page is left.
    gcTime: 0,
  });
}

export function useDecideWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      decision: { id: string; kind: 'approve' } | { id: string; kind: 'reject'; reason: string },
    ) =>
      decision.kind === 'approve'
        ? unwrap(client.admin.withdrawals[':id'].approve.$post({ param: { id: decision.id } }))
        : unwrap(
            client.admin.withdrawals[':id'].reject.$post({
              param: { id: decision.id },
              json: { reason: decision.reason },
            }),
          ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminWithdrawalsKey }),
  });
}
