/** Admin: the payee withdrawal minimum (GET/PUT /api/admin/wallet/payee-settings, record 175). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PayeeSettingsInput } from '@tunedrop/shared/schemas/wallet';
import { client, unwrap } from '../../../lib/api';

const payeeSettingsKey = ['admin', 'payee-settings'] as const;

export function usePayeeSettings() {
  return useQuery({
    queryKey: payeeSettingsKey,
    queryFn: () => unwrap(client.admin.wallet['payee-settings'].$get()),
  });
}

export function useSavePayeeSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: PayeeSettingsInput) => unwrap(client.admin.wallet['payee-settings'].$put({ json })),
    onSuccess: (data) => queryClient.setQueryData(payeeSettingsKey, data),
  });
}
