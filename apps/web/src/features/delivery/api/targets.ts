/** Delivery targets: list, add, edit, remove, test the connection (/api/admin/delivery/targets). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TargetInput, TargetPatch, TargetRemovalImpact } from '@tunedrop/shared/schemas/delivery';
import { client, unwrap } from '../../../lib/api';
import { deliveryKeys } from './keys';

const targets = client.admin.delivery.targets;

export function useDeliveryTargets() {
  return useQuery({
    queryKey: deliveryKeys.targets(),
    queryFn: async () => (await unwrap(targets.$get())).items,
  });
}

export type SaveTargetVariables = { id: null; body: TargetInput } | { id: string; body: TargetPatch };

export function useSaveDeliveryTarget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: SaveTargetVariables) =>
      id === null
        ? unwrap(targets.$post({ json: body as TargetInput }))
        : unwrap(targets[':id'].$patch({ param: { id }, json: body })),
    onSettled: async () => {
      // A target added, enabled or given other stores changes which stores have no connection (issue 44).
      await queryClient.invalidateQueries({ queryKey: deliveryKeys.unconnectedStores() });
      await queryClient.invalidateQueries({ queryKey: deliveryKeys.targets() });
    },
  });
}

/**
 * Removes a target; `takeDownAll` first takes down what it holds (it stays, disabled, until done). `removal`
 * is who the admin was shown it affects (issue 44): the server refuses other counts than its own.
 */
export function useDeleteDeliveryTarget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      takeDownAll,
      removal,
    }: {
      id: string;
      takeDownAll: boolean;
      removal: TargetRemovalImpact;
    }) =>
      unwrap(
        targets[':id'].$delete({
          param: { id },
          query: {
            ...(takeDownAll ? { takeDown: 'all' as const } : {}),
            releases: removal.releases,
            artists: removal.artists,
          },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deliveryKeys.all }),
  });
}

export function useTestDeliveryTarget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(targets[':id'].test.$post({ param: { id } })),
    // The first connection to an SFTP target records its host key: show it on the card.
    onSettled: () => queryClient.invalidateQueries({ queryKey: deliveryKeys.targets() }),
  });
}
