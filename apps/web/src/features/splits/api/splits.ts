/** Royalty splits (issue 17, record 140): the owner's splits and expenses, invitations, the payee's shares. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExpenseInput, SplitSetInput } from '@tunedrop/shared/schemas/splits';
import { client, unwrap } from '../../../lib/api';

export const splitsKeys = {
  release: (id: string) => ['release-splits', id] as const,
  invitation: (token: string) => ['split-invitation', token] as const,
  shares: ['split-shares'] as const,
};

export function useReleaseSplits(id: string) {
  return useQuery({
    queryKey: splitsKeys.release(id),
    queryFn: () => unwrap(client.releases[':id'].splits.$get({ param: { id } })),
  });
}

export function useSaveSplit(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: SplitSetInput) => unwrap(client.releases[':id'].splits.$put({ param: { id }, json })),
    onSuccess: (data) => queryClient.setQueryData(splitsKeys.release(id), data),
  });
}

export function useWithdrawPayee(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payeeId: string) =>
      unwrap(client.releases[':id'].splits.payees[':payeeId'].withdraw.$post({ param: { id, payeeId } })),
    onSuccess: (data) => queryClient.setQueryData(splitsKeys.release(id), data),
  });
}

export function useAddExpense(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: ExpenseInput) =>
      unwrap(client.releases[':id'].expenses.$post({ param: { id }, json })),
    onSuccess: (data) => queryClient.setQueryData(splitsKeys.release(id), data),
  });
}

export function useInvitation(token: string) {
  return useQuery({
    queryKey: splitsKeys.invitation(token),
    queryFn: () => unwrap(client['split-invitations'][':token'].$get({ param: { token } })),
    retry: false,
  });
}

export function useAcceptInvitation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client['split-invitations'][':token'].accept.$post({ param: { token } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: splitsKeys.invitation(token) }),
  });
}

export function usePayeeShares() {
  return useQuery({
    queryKey: splitsKeys.shares,
    queryFn: () => unwrap(client.splits.shares.$get()),
  });
}
