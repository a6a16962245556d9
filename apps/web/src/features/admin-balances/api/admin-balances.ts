/** Balance Management API: user search, single edit, bulk verify and apply. */
import { useMutation } from '@tanstack/react-query';
import type {
  AppliedRow,
  ApplyRowsInput,
  BalanceUser,
  ManualBalanceInput,
  ManualBalanceResult,
  VerifiedRow,
  VerifyRowsInput,
} from '@tunedrop/shared/schemas/admin-balances';
import { api } from '../../../lib/api';

export function useSearchBalanceUsers() {
  return useMutation({
    mutationFn: (q: string) => api<{ users: BalanceUser[] }>('/api/admin/balances/users', { query: { q } }),
  });
}

export function useUpdateBalance() {
  return useMutation({
    mutationFn: ({ userId, input }: { userId: string; input: ManualBalanceInput }) =>
      api<ManualBalanceResult>(`/api/admin/balances/users/${userId}`, { method: 'PUT', body: input }),
  });
}

export function useVerifyRows() {
  return useMutation({
    mutationFn: (input: VerifyRowsInput) =>
      api<{ rows: VerifiedRow[] }>('/api/admin/balances/verify', { method: 'POST', body: input }),
  });
}

export function useApplyRows() {
  return useMutation({
    mutationFn: (input: ApplyRowsInput) =>
      api<{ rows: AppliedRow[]; applied: number }>('/api/admin/balances/apply', {
        method: 'POST',
        body: input,
      }),
  });
}
