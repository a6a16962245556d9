/**
 * A run's payouts (issue 38): each payee's state, figures, the provider's reference and status, why it was
 * blocked or returned; a bank-csv payout sent can be marked paid or returned by hand, and a payout returned
 * or blocked can be paid again (a run of that payee alone, planned like any run).
 */
import {
  PAYOUT_PROVIDER_LABELS,
  type PayoutItemView,
  WISE_AWAITING_FUNDING_LABEL,
} from '@tunedrop/shared/schemas/payouts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ReasonDialog } from '../../../components/ui/reason-dialog';
import { StatusBadge } from '../../../components/ui/status-badge';
import { notify } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api';
import { formatCents } from '../../../lib/format';
import { useMarkItem, useRetryItem } from '../api/admin-payouts';

function detailOf(item: PayoutItemView): string {
  if (item.awaitingFunding)
    return `${WISE_AWAITING_FUNDING_LABEL}: approve it there; Wise's events then mark it paid.`;
  if (item.state === 'blocked') return item.blockedReason ?? '';
  if (item.state === 'returned') return `Returned: ${item.returnReason ?? 'no reason given'}`;
  return item.withholding ?? '';
}

export function RunItems({ runId, items }: { runId: string; items: PayoutItemView[] }) {
  const navigate = useNavigate();
  const mark = useMarkItem(runId);
  const retry = useRetryItem(runId);
  const [returning, setReturning] = useState<PayoutItemView | null>(null);

  const markPaid = (item: PayoutItemView) =>
    mark.mutate(
      { itemId: item.id, outcome: 'paid', reason: '' },
      {
        onSuccess: () => notify.success('Marked paid', item.email),
        onError: (failure) => notify.error(errorMessage(failure, 'The payout could not be marked paid.')),
      },
    );
  const payAgain = (item: PayoutItemView) =>
    retry.mutate(item.id, {
      onSuccess: (created) => {
        notify.success('Payout run started', `${item.email}: ${formatCents(created.totals.netCents)} net.`);
        navigate(paths.adminPayoutRun(created.id));
      },
      onError: (failure) => notify.error(errorMessage(failure, 'The payout could not be started again.')),
    });

  if (items.length === 0) return <p className="text-sm text-zinc-300">This run has no payouts.</p>;
  return (
    <>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" aria-label="Payouts of this run">
          <thead className="text-xs text-zinc-400">
            <tr>
              <th className="py-2 pr-3 font-medium">Payee</th>
              <th className="py-2 pr-3 font-medium">State</th>
              <th className="py-2 pr-3 text-right font-medium">Gross</th>
              <th className="py-2 pr-3 text-right font-medium">Withheld</th>
              <th className="py-2 pr-3 text-right font-medium">Net</th>
              <th className="py-2 pr-3 font-medium">Provider</th>
              <th className="py-2 font-medium">Actions</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-ink-800 text-zinc-200">
            {items.map((item) => (
              <tr key={item.id} data-testid="run-item" data-email={item.email}>
                <td className="py-2 pr-3">{item.email}</td>
                <td className="py-2 pr-3">
                  <StatusBadge
                    kind="payout"
                    status={item.awaitingFunding ? 'planned' : item.state}
                    data-testid="run-item-state"
                  />
                  <p className="mt-1 text-xs text-zinc-400">{detailOf(item)}</p>
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">{formatCents(item.grossCents)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{formatCents(item.withheldCents)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{formatCents(item.netCents)}</td>
                <td className="py-2 pr-3 text-xs">
                  {item.provider ? PAYOUT_PROVIDER_LABELS[item.provider] : '—'}
                  {item.providerReference ? (
                    <span className="block break-all text-zinc-400">{item.providerReference}</span>
                  ) : null}
                  {item.providerStatus ? (
                    <span className="block text-zinc-400">{item.providerStatus}</span>
                  ) : null}
                </td>
                <td className="py-2">
                  <div className="flex flex-wrap gap-2">
                    {item.state === 'sent' && item.provider === 'bank-csv' ? (
                      <>
                        <Button
                          size="sm"
                          variant="outline"
                          disabled={mark.isPending}
                          aria-label={`Mark paid: ${item.email}`}
                          onClick={() => markPaid(item)}
                        >
                          Mark paid
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-label={`Mark returned: ${item.email}`}
                          onClick={() => setReturning(item)}
                        >
                          Mark returned
                        </Button>
                      </>
                    ) : null}
                    {item.state === 'returned' || item.state === 'blocked' ? (
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={retry.isPending}
                        aria-label={`Pay again: ${item.email}`}
                        onClick={() => payAgain(item)}
                      >
                        Pay again
                      </Button>
                    ) : null}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ReasonDialog
        open={returning !== null}
        onOpenChange={(open) => (open ? null : setReturning(null))}
        title="Mark returned"
        description={`The bank returned the payout to ${returning?.email ?? ''}: the money goes back on the payee's balance.`}
        label="Reason"
        confirmLabel="Mark returned"
        requiredTitle="Reason required"
        requiredMessage="Say why the bank returned the payout."
        isPending={mark.isPending}
        onConfirm={(reason) => {
          if (!returning) return;
          mark.mutate(
            { itemId: returning.id, outcome: 'returned', reason },
            {
              onSuccess: () => {
                notify.success('Marked returned', returning.email);
                setReturning(null);
              },
              onError: (failure) =>
                notify.error(errorMessage(failure, 'The payout could not be marked returned.')),
            },
          );
        }}
      />
    </>
  );
}
