/** The delivery dashboard: deliveries per release and target, one delivery's attempts, retry, takedowns. */
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { PlatformId } from '@tunedrop/shared';
import type { AdminTakedownInput, DeliveryState } from '@tunedrop/shared/schemas/delivery';
import { client, unwrap } from '../../../lib/api';
import { deliveryKeys } from './keys';

export const DELIVERIES_PAGE_SIZE = 50;

export type DeliveryFilters = {
  state: DeliveryState | '';
  targetId: string;
  /** Release title, artist or UPC. */
  q: string;
  platform: PlatformId | '';
};

export function useDeliveries(filters: DeliveryFilters) {
  return useInfiniteQuery({
    queryKey: deliveryKeys.deliveryList(filters),
    queryFn: ({ pageParam }) =>
      unwrap(
        client.admin.deliveries.$get({
          query: {
            limit: String(DELIVERIES_PAGE_SIZE),
            ...(filters.state ? { state: filters.state } : {}),
            ...(filters.targetId ? { targetId: filters.targetId } : {}),
            ...(filters.q ? { q: filters.q } : {}),
            ...(filters.platform ? { platform: filters.platform } : {}),
            ...(pageParam ? { cursor: pageParam } : {}),
          },
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    // The worker moves states in the background: keep an open dashboard current.
    refetchInterval: 10_000,
  });
}

export function useDelivery(id: string | null) {
  return useQuery({
    queryKey: deliveryKeys.delivery(id ?? ''),
    queryFn: () => unwrap(client.admin.deliveries[':id'].$get({ param: { id: id ?? '' } })),
    enabled: id !== null,
    refetchInterval: 10_000,
  });
}

/** Acknowledgements that match no delivery, or that could not be read: kept and shown, never dropped. */
export function useUnmatchedAcks() {
  return useQuery({
    queryKey: deliveryKeys.unmatchedAcks(),
    queryFn: async () => (await unwrap(client.admin.delivery['unmatched-acks'].$get())).items,
  });
}

/** Where the browser downloads the exact package one attempt sent (a zip). */
export const attemptPackageUrl = (deliveryId: string, attemptId: string) =>
  `/api/admin/deliveries/${deliveryId}/attempts/${attemptId}/package`;

export function useRetryDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(client.admin.deliveries[':id'].retry.$post({ param: { id } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deliveryKeys.deliveries() }),
  });
}

export function useAdminTakedown() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ releaseId, body }: { releaseId: string; body: AdminTakedownInput }) =>
      unwrap(client.admin.releases[':id'].takedown.$post({ param: { id: releaseId }, json: body ?? {} })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deliveryKeys.deliveries() }),
  });
}
