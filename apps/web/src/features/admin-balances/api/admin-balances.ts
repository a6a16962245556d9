/** Balance Management API: user search, single edit, bulk verify and apply. */
import { useMutation } from '@tanstack/react-query';
import type {
  ApplyRowsInput,
  ManualBalanceInput,
  VerifyRowsInput,
} from '@tunedrop/shared/schemas/admin-balances';
import { client, unwrap } from '../../../lib/api';

export function useSearchBalanceUsers() {
  return useMutation({
    mutationFn: (q: string) => unwrap(client.admin.balances.users.$get({ query: { q } })),
  });
}

export function useUpdateBalance() {
  return useMutation({
    mutationFn: ({ userId, input }: { userId: string; input: ManualBalanceInput }) =>
      unwrap(client.admin.balances.users[':id'].$put({ param: { id: userId }, json: input })),
  });
}

export function useVerifyRows() {
  return useMutation({
    mutationFn: (input: VerifyRowsInput) => unwrap(client.admin.balances.verify.$post({ json: input })),
  });
}

export function useApplyRows() {
  return useMutation({
    mutationFn: (input: ApplyRowsInput) => unwrap(client.admin.balances.apply.$post({ json: input })),
  });
}
