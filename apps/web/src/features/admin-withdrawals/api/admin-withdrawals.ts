/** Withdrawal Management API: the list (with decrypted payment details), approve, reject. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminWithdrawalsPage, WithdrawalTab } from '@tunedrop/shared/schemas/admin-withdrawals';
import { api } from '../../../lib/api';

export const adminWithdrawalsKey = ['admin-withdrawals'] as const;

export function useAdminWithdrawals(params: { q: string; tab: WithdrawalTab; page: number }) {
  return useQuery({
    queryKey: [...adminWithdrawalsKey, params],
    queryFn: () => api<AdminWithdrawalsPage>('/api/admin/withdrawals', { query: params }),
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
        ? api(`/api/admin/withdrawals/${decision.id}/approve`, { method: 'POST' })
        : api(`/api/admin/withdrawals/${decision.id}/reject`, {
            method: 'POST',
            body: { reason: decision.reason },
          }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminWithdrawalsKey }),
  });
}
