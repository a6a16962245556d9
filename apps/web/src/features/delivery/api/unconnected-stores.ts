/** Stores no enabled target serves, with the releases waiting on them (GET /api/admin/delivery/unconnected-stores). */
import { useQuery } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';
import { deliveryKeys } from './keys';

export function useUnconnectedStores(isEnabled = true) {
  return useQuery({
    queryKey: deliveryKeys.unconnectedStores(),
    queryFn: () => unwrap(client.admin.delivery['unconnected-stores'].$get()),
    enabled: isEnabled,
  });
}
