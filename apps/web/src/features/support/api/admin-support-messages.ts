/** Admin: support messages in reply-by order (GET /api/admin/support/messages) and a reply (POST …/replies). */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SupportFilter } from '@tunedrop/shared/schemas/support';
import { client, unwrap } from '../../../lib/api';

const adminSupportKey = ['admin', 'support-messages'] as const;

export function useAdminSupportMessages(params: { status: SupportFilter; page: number }) {
  return useQuery({
    queryKey: [...adminSupportKey, params.status, params.page],
    queryFn: () =>
      unwrap(
        client.admin.support.messages.$get({ query: { status: params.status, page: String(params.page) } }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function useReplyToSupportMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: string }) =>
      unwrap(client.admin.support.messages[':id'].replies.$post({ param: { id }, json: { body } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminSupportKey }),
  });
}
