/** The artist's earnings ledger (cursor pages, newest first; every plan). */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';

export const ledgerQueryKey = ['royalties-ledger'] as const;

export function useLedger(cursor: string | null) {
  return useQuery({
    queryKey: [...ledgerQueryKey, cursor ?? 'first'],
    queryFn: () => unwrap(client.royalties.ledger.$get({ query: cursor ? { cursor } : {} })),
    placeholderData: keepPreviousData,
  });
}
