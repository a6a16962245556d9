/** The artist's monthly statements (record 190): the list with balances, one statement's figures, its files. */
import { useQuery } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';

export function useStatements() {
  return useQuery({
    queryKey: ['royalties-statements'],
    queryFn: () => unwrap(client.royalties.statements.$get()),
  });
}

export function useStatement(period: string, isEnabled: boolean) {
  return useQuery({
    queryKey: ['royalties-statements', period],
    queryFn: () => unwrap(client.royalties.statements[':period'].summary.$get({ param: { period } })),
    enabled: isEnabled,
  });
}

export const statementUrl = (period: string, type: 'csv' | 'pdf') =>
  `/api/royalties/statements/${period}.${type}`;
