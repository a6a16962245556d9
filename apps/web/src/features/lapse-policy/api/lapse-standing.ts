/** Where the account's releases stand after a lapse (GET /api/me/lapse-standing, issue 44): the banner's text. */
import { useQuery } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';

export function useLapseStanding(isEnabled: boolean) {
  return useQuery({
    queryKey: ['me', 'lapse-standing'] as const,
    queryFn: () => unwrap(client.me['lapse-standing'].$get()),
    enabled: isEnabled,
  });
}
