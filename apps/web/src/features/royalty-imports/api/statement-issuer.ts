/** Admin: who issues royalty statements (GET/PUT /api/admin/royalties/statement-issuer, record 190). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StatementIssuerInput } from '@tunedrop/shared/schemas/royalty-statements';
import { client, unwrap } from '../../../lib/api';

const statementIssuerKey = ['admin', 'statement-issuer'] as const;

export function useStatementIssuer() {
  return useQuery({
    queryKey: statementIssuerKey,
    queryFn: () => unwrap(client.admin.royalties['statement-issuer'].$get()),
  });
}

export function useSaveStatementIssuer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: StatementIssuerInput) =>
      unwrap(client.admin.royalties['statement-issuer'].$put({ json })),
    onSuccess: (data) => queryClient.setQueryData(statementIssuerKey, data),
  });
}
