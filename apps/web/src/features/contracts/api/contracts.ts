/** Admin label contracts (issue 39, record 285): GET/POST /api/admin/contracts, GET/PUT /:id, label-releases. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ContractAdvanceInput, ContractInput } from '@tunedrop/shared/schemas/contracts';
import { client, unwrap } from '../../../lib/api';

const contractKeys = {
  all: ['admin-contracts'] as const,
  list: () => [...contractKeys.all, 'list'] as const,
  one: (id: string) => [...contractKeys.all, 'one', id] as const,
  releases: (email: string) => [...contractKeys.all, 'label-releases', email] as const,
};

export function useContracts() {
  return useQuery({ queryKey: contractKeys.list(), queryFn: () => unwrap(client.admin.contracts.$get()) });
}

export function useContract(id: string | null) {
  return useQuery({
    queryKey: contractKeys.one(id ?? ''),
    queryFn: () => unwrap(client.admin.contracts[':id'].$get({ param: { id: id ?? '' } })),
    enabled: id !== null,
  });
}

/** The label's releases, once an email is given (the form asks for them with a button). */
export function useLabelReleases(email: string | null) {
  return useQuery({
    queryKey: contractKeys.releases(email ?? ''),
    queryFn: () => unwrap(client.admin.contracts['label-releases'].$get({ query: { email: email ?? '' } })),
    enabled: email !== null,
    retry: false,
  });
}

export function useSaveContract() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, json }: { id: string | null; json: ContractInput }) =>
      id
        ? unwrap(client.admin.contracts[':id'].$put({ param: { id }, json }))
        : unwrap(client.admin.contracts.$post({ json })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contractKeys.all }),
  });
}

export function useRecoupment(id: string) {
  return useQuery({
    queryKey: [...contractKeys.one(id), 'advances'],
    queryFn: () => unwrap(client.admin.contracts[':id'].advances.$get({ param: { id } })),
  });
}

export function useRecordAdvance(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: ContractAdvanceInput) =>
      unwrap(client.admin.contracts[':id'].advances.$post({ param: { id }, json })),
    onSuccess: (data) => queryClient.setQueryData([...contractKeys.one(id), 'advances'], data),
  });
}
