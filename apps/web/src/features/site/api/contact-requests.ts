/** Admin list of contact requests (GET /api/admin/messages) and marking one handled (PATCH). */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ContactRequestFilter,
  ContactRequestList,
  ContactRequestView,
} from '@tunedrop/shared/schemas/site';
import { api } from '../../../lib/api';

const contactRequestsKey = ['admin', 'contact-requests'] as const;

export function useContactRequests(params: { status: ContactRequestFilter; page: number }) {
  return useQuery({
    queryKey: [...contactRequestsKey, params.status, params.page],
    queryFn: () => api<ContactRequestList>('/api/admin/messages', { query: params }),
    placeholderData: keepPreviousData,
  });
}

export function useSetContactRequestHandled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isHandled }: { id: string; isHandled: boolean }) =>
      api<ContactRequestView>(`/api/admin/messages/${id}`, { method: 'PATCH', body: { isHandled } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactRequestsKey }),
  });
}
