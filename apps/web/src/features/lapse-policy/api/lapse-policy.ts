/** Admin: the lapsed-accounts policy (GET/PUT /api/admin/lapse-policy, record 196). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LapsePolicy } from '@tunedrop/shared/schemas/lapse-policy';
import { client, unwrap } from '../../../lib/api';

const lapsePolicyKey = ['admin', 'lapse-policy'] as const;

export function useLapsePolicy() {
  return useQuery({
    queryKey: lapsePolicyKey,
    queryFn: () => unwrap(client.admin['lapse-policy'].$get()),
  });
}

export function useSaveLapsePolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: LapsePolicy) => unwrap(client.admin['lapse-policy'].$put({ json })),
    onSuccess: (data) => queryClient.setQueryData(lapsePolicyKey, data),
  });
}
