/** The artist's payouts, newest first (issue 38): each one's state in plain words and the provider's reference. */
import type { PayoutItemView } from '@tunedrop/shared/schemas/payouts';
import { Card } from '../../../components/ui/card';
import { StatusBadge } from '../../../components/ui/status-badge';
import { formatCents, formatDate } from '../../../lib/format';
import type { usePayouts } from '../api/payouts';

export type PayoutsPageData = NonNullable<ReturnType<typeof usePayouts>['data']>;

/** What each state means for the artist. */
function stateText(payout: PayoutItemView): string {
  switch (payout.state) {
    case 'blocked':
      return payout.blockedReason ?? 'This payout was held back.';
    case 'planned':
      return 'Created: being sent to the payment provider.';
    case 'sent':
      if (payout.awaitingFunding) return 'Created: the transfer is waiting for the label to fund it in Wise.';
      return payout.sentAt ? `Sent on ${formatDate(payout.sentAt)}: on its way to you.` : 'Sent: on its way.';
    case 'paid':
      return payout.paidAt ? `Paid on ${formatDate(payout.paidAt)}.` : 'Paid.';
    case 'returned':
      return `Returned${payout.returnReason ? ` (${payout.returnReason})` : ''}: the money is back on your balance and goes out with the next payout.`;
  }
}

export function PayoutHistory({ payouts }: { payouts: PayoutItemView[] }) {
  return (
    <Card className="space-y-3">
      <h2 className="text-lg font-semibold text-white">Payout history</h2>
      {payouts.length === 0 ? (
        <p className="text-sm text-zinc-300" data-testid="payouts-empty">
          No payouts yet. Each payout appears here once a payout run pays your balance.
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" aria-label="Payout history">
            <thead className="text-xs text-zinc-400">
              <tr>
                <th className="py-2 pr-3 font-medium">Date</th>
                <th className="py-2 pr-3 font-medium">State</th>
                <th className="py-2 pr-3 text-right font-medium">Gross</th>
                <th className="py-2 pr-3 text-right font-medium">Tax withheld</th>
                <th className="py-2 pr-3 text-right font-medium">Net</th>
                <th className="py-2 font-medium">Reference</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-ink-800 text-zinc-200">
              {payouts.map((payout) => (
                <tr key={payout.id} data-testid="payout-row">
                  <td className="py-2 pr-3 whitespace-nowrap">{formatDate(payout.createdAt)}</td>
                  <td className="py-2 pr-3">
                    <StatusBadge kind="payout" status={payout.awaitingFunding ? 'planned' : payout.state} />
                    <p className="mt-1 text-xs text-zinc-400">{stateText(payout)}</p>
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">{formatCents(payout.grossCents)}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{formatCents(payout.withheldCents)}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{formatCents(payout.netCents)}</td>
                  <td className="py-2 text-xs break-all text-zinc-400">
                    {payout.providerReference ?? `${payout.runId}:${payout.accountId}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
