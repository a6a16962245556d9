/** The artist's monthly statements (record 190): the list with balances, one statement's figures, its files. */
import { useQuery } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';

export function useStatements() {
  return useQuery({
    queryKey: ['royalties-statements'],
    queryFn: () => unwrap(client.royalties.statements.$get()),
  });
}

/** One statement; with `artistProfileId` (record 201) its earnings are that profile's releases only. */
export function useStatement(period: string, isEnabled: boolean, artistProfileId?: string) {
  return useQuery({
    queryKey: ['royalties-statements', period, artistProfileId ?? 'all'],
    queryFn: () =>
      unwrap(
        client.royalties.statements[':period'].summary.$get({
          param: { period },
          query: artistProfileId ? { artistProfileId } : {},
        }),
      ),
    enabled: isEnabled,
  });
}

export const statementUrl = (period: string, type: 'csv' | 'pdf', artistProfileId?: string) =>
  `/api/royalties/statements/${period}.${type}${artistProfileId ? `?artistProfileId=${encodeURIComponent(artistProfileId)}` : ''}`;
