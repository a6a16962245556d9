/** Admin: the operator's time zone that reply-by times are counted in (GET/PUT /api/admin/support/settings). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SupportSettings } from '@tunedrop/shared/schemas/support';
import { client, unwrap } from '../../../lib/api';

const settingsKey = ['admin', 'support-settings'] as const;

export function useSupportSettings() {
  return useQuery({
    queryKey: settingsKey,
    queryFn: () => unwrap(client.admin.support.settings.$get()),
  });
}

export function useSaveSupportSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: SupportSettings) => unwrap(client.admin.support.settings.$put({ json })),
    onSuccess: (data) => queryClient.setQueryData(settingsKey, data),
  });
}
