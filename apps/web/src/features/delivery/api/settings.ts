/** GET/PUT /api/admin/settings: the operator's ISRC registrant, UPC prefix and DDEX sender. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SettingsInput } from '@tunedrop/shared/schemas/delivery';
import { client, unwrap } from '../../../lib/api';
import { deliveryKeys } from './keys';

export function useDeliverySettings() {
  return useQuery({
    queryKey: deliveryKeys.settings(),
    queryFn: () => unwrap(client.admin.settings.$get()),
  });
}

export function useSaveDeliverySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: SettingsInput) => unwrap(client.admin.settings.$put({ json })),
    onSuccess: (settings) => queryClient.setQueryData(deliveryKeys.settings(), settings),
  });
}
