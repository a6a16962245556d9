/** The signed-in user's support messages: the Help history (GET), one thread (GET :id) and a new message (POST). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SupportMessage } from '@tunedrop/shared/schemas/support';
import { client, unwrap } from '../../../lib/api';

const helpKey = ['support', 'messages'] as const;

export function useSupportThreads() {
  return useQuery({
    queryKey: helpKey,
    queryFn: () => unwrap(client.support.messages.$get()),
  });
}

export function useSupportThread(id: string) {
  return useQuery({
    queryKey: [...helpKey, id],
    queryFn: () => unwrap(client.support.messages[':id'].$get({ param: { id } })),
  });
}

export function useSendSupportMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: SupportMessage) => unwrap(client.support.messages.$post({ json })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: helpKey }),
  });
}
