/**
 * The suspense account (decision 188): held money of posted reports by code, searchable and paged;
 * assigning a code to a track or release (paid to its artist), releasing a code to operator revenue.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SuspenseAssignInput, SuspenseReleaseInput } from '@tunedrop/shared/schemas/royalty-suspense';
import { client, unwrap } from '../../../lib/api';
import { royaltyKeys } from './royalty-imports';

export const suspenseKeys = {
  all: [...royaltyKeys.all, 'suspense'] as const,
  page: (q: string, page: number) => [...suspenseKeys.all, q, page] as const,
};

export function useSuspense(q: string, page: number) {
  return useQuery({
    queryKey: suspenseKeys.page(q, page),
    queryFn: () =>
      unwrap(client.admin.royalties.suspense.$get({ query: { ...(q ? { q } : {}), page: String(page) } })),
    placeholderData: keepPreviousData,
  });
}

/** Paying out or releasing changes balances, the queue and the imports: every list here is read again. */
function useInvalidateAll() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: royaltyKeys.all });
}

export function useAssignSuspense() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (input: SuspenseAssignInput) =>
      unwrap(client.admin.royalties.suspense.assign.$post({ json: input })),
    onSettled: invalidate,
  });
}

export function useReleaseSuspense() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (input: SuspenseReleaseInput) =>
      unwrap(client.admin.royalties.suspense.release.$post({ json: input })),
    onSettled: invalidate,
  });
}
