/** Admin list of contact requests (GET /api/admin/messages) and marking one handled (PATCH). */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ContactRequestFilter } from '@tunedrop/shared/schemas/site';
import { client, unwrap } from '../../../lib/api';

const contactRequestsKey = ['admin', 'contact-requests'] as const;

export function useContactRequests(params: { status: ContactRequestFilter; page: number }) {
  return useQuery({
    queryKey: [...contactRequestsKey, params.status, params.page],
    queryFn: () =>
      unwrap(client.admin.messages.$get({ query: { status: params.status, page: String(params.page) } })),
    placeholderData: keepPreviousData,
  });
}

export function useSetContactRequestHandled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isHandled }: { id: string; isHandled: boolean }) =>
      unwrap(client.admin.messages[':id'].$patch({ param: { id }, json: { isHandled } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactRequestsKey }),
  });
}
