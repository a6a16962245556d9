/** GET /api/releases/:id/detail: the release page (owner only): codes, tracks, credits, stores, history. */
import { useQuery } from '@tanstack/react-query';
import type { StoreState } from '@tunedrop/shared/schemas/delivery';
import { client, unwrap } from '../../../lib/api';
import { releasesKeys } from './keys';

/** States the worker or a store moves on by itself within seconds to minutes. */
const MOVING: readonly StoreState[] = [
  'queued',
  'uploading',
  'delivered',
  'takedown_requested',
  'takedown_queued',
];

export function useReleaseDetail(id: string) {
  return useQuery({
    queryKey: releasesKeys.page(id),
    queryFn: () => unwrap(client.releases[':id'].detail.$get({ param: { id } })),
    retry: false,
    // Store states move in the background: look often while a delivery is under way, rarely otherwise.
    refetchInterval: (query) =>
      query.state.data?.stores.some((store) => MOVING.includes(store.state)) ? 5_000 : 30_000,
  });
}
