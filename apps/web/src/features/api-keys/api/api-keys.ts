/** API keys of the acting account (issue 40, record 290): list, make (the key is in this answer only), revoke. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateApiKeyInput } from '@tunedrop/shared/schemas/api-keys';
import { client, unwrap } from '../../../lib/api';

export const apiKeysKey = ['api-keys'] as const;

export function useApiKeys() {
  return useQuery({ queryKey: apiKeysKey, queryFn: () => unwrap(client['api-keys'].$get()) });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: CreateApiKeyInput) => unwrap(client['api-keys'].$post({ json })),
    onSuccess: (data) => queryClient.setQueryData(apiKeysKey, { keys: data.keys }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(client['api-keys'][':id'].$delete({ param: { id } })),
    onSuccess: (data) => queryClient.setQueryData(apiKeysKey, data),
  });
}
