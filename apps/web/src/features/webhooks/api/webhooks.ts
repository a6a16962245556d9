/** Webhook endpoints of the acting account and their delivery log (issue 40, record 291). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateWebhookEndpointInput } from '@tunedrop/shared/schemas/webhooks';
import { client, unwrap } from '../../../lib/api';

export const webhookKeys = {
  endpoints: ['webhook-endpoints'] as const,
  deliveries: (id: string) => ['webhook-deliveries', id] as const,
};

export function useWebhookEndpoints() {
  return useQuery({
    queryKey: webhookKeys.endpoints,
    queryFn: () => unwrap(client.webhooks.endpoints.$get()),
  });
}

export function useCreateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: CreateWebhookEndpointInput) => unwrap(client.webhooks.endpoints.$post({ json })),
    onSuccess: (data) => queryClient.setQueryData(webhookKeys.endpoints, { endpoints: data.endpoints }),
  });
}

export function useRemoveWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(client.webhooks.endpoints[':id'].$delete({ param: { id } })),
    onSuccess: (data) => queryClient.setQueryData(webhookKeys.endpoints, data),
  });
}

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(client.webhooks.endpoints[':id'].rotate.$post({ param: { id } })),
    onSuccess: (data) => queryClient.setQueryData(webhookKeys.endpoints, { endpoints: data.endpoints }),
  });
}

/**
 * The log refreshes every few seconds while a delivery is still pending; an answer of 410 disabled the
 * endpoint, so the endpoints are read again too.
 */
export function useWebhookDeliveries(id: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: webhookKeys.deliveries(id),
    queryFn: async () => {
      const data = await unwrap(client.webhooks.endpoints[':id'].deliveries.$get({ param: { id } }));
      if (data.deliveries.some((delivery) => delivery.lastStatus === 410))
        void queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints });
      return data;
    },
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((delivery) => delivery.state === 'pending') ? 2000 : false,
  });
}

export function useSendTestEvent(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.webhooks.endpoints[':id'].test.$post({ param: { id } })),
    onSuccess: (data) => queryClient.setQueryData(webhookKeys.deliveries(id), data),
  });
}

export function useRedeliver(endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(client.webhooks.deliveries[':id'].redeliver.$post({ param: { id: deliveryId } })),
    onSuccess: (data) => queryClient.setQueryData(webhookKeys.deliveries(endpointId), data),
  });
}
