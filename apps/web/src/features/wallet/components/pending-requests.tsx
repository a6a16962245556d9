/** Pending withdrawal requests, each with Cancel and the 'Keep Request' / 'Yes, Cancel Request' confirmation. */
import { describeMaskedDetails, WALLET_TEXTS, type WithdrawalSummary } from '@tunedrop/shared/schemas/wallet';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { StatusBadge } from '../../../components/ui/status-badge';
import { notify } from '../../../components/ui/toast';
import { formatCents, formatDateTime } from '../../../lib/format';
import { useCancelWithdrawal } from '../api/wallet';
import { showWalletError } from './show-wallet-error';

/** `canCancel`: the viewer's role allows withdrawals (record 205); others see the requests only. */
export function PendingRequests({
  requests,
  canCancel = true,
}: {
  requests: WithdrawalSummary[];
  canCancel?: boolean;
}) {
  const [cancelling, setCancelling] = useState<WithdrawalSummary | null>(null);
  const cancel = useCancelWithdrawal();

  const confirm = () => {
    if (!cancelling) return;
    cancel.mutate(cancelling.id, {
      onSuccess: (result) => {
        notify.success(
          'Withdrawal cancelled',
          `${formatCents(result.amountCents)} has been returned to your available balance.`,
        );
        setCancelling(null);
      },
      onError: (error) => {
        showWalletError(error, 'Failed to cancel withdrawal');
        setCancelling(null);
      },
    });
  };

  return (
    <Card>
      <h2 className="text-lg font-semibold text-white">Pending Withdrawal Requests</h2>
      {requests.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-400">You have no pending withdrawal requests.</p>
      ) : (
        <ul className="mt-4 divide-y divide-ink-700" aria-label="Pending withdrawal requests">
          {requests.map((request) => (
            <li key={request.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div>
                <p className="font-semibold text-white tabular-nums">{formatCents(request.amountCents)}</p>
                <p className="text-sm text-zinc-400">
                  Requested {formatDateTime(request.requestedAt)} ·{' '}
                  {describeMaskedDetails(request.paymentDetails)}
                </p>
              </div>
              <div className="flex items-center gap-3">
                <StatusBadge kind="withdrawal" status="pending" />
                {canCancel ? (
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => setCancelling(request)}
                    aria-label={`Cancel withdrawal of ${formatCents(request.amountCents)}`}
                  >
                    Cancel
                  </Button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(open) => {
          if (!open) setCancelling(null);
        }}
        title="Cancel Withdrawal"
        description={
          cancelling
            ? `Are you sure you want to cancel this withdrawal request? ${formatCents(cancelling.amountCents)} will be returned to your available balance.`
            : ''
        }
        cancelLabel={WALLET_TEXTS.keepRequest}
        confirmLabel={WALLET_TEXTS.confirmCancel}
        onConfirm={confirm}
        isDestructive
        isPending={cancel.isPending}
      />
    </Card>
  );
}
