/** The account's Payouts page (GET /api/payouts, issue 38): method, next run, blockers, history. */
import { useQuery } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';

export const payoutsQueryKey = ['payouts'] as const;

/** While a payout is on its way (created or sent), the page reads again every few seconds. */
export function usePayouts() {
  return useQuery({
    queryKey: payoutsQueryKey,
    queryFn: () => unwrap(client.payouts.$get()),
    refetchInterval: (query) =>
      query.state.data?.payouts.some((payout) => payout.state === 'planned' || payout.state === 'sent')
        ? 5_000
        : false,
  });
}
