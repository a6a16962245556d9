/**
 * The owner's side of a mailed confirmation link (record 314): opening the link changes nothing (a mail
 * scanner may open it); the owner confirms with the button, and a refused link says why.
 */
import { PAYOUT_CONFIRM_TEXTS } from '@tunedrop/shared/schemas/payout-details';
import { describeMaskedDetails, type MaskedPaymentDetails } from '@tunedrop/shared/schemas/wallet';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { errorMessage } from '../../../lib/api';
import { useConfirmPayoutDetails } from '../api/wallet';

export function ConfirmPayoutDetailsCard({
  token,
  pending,
  onDone,
}: {
  token: string;
  pending: MaskedPaymentDetails | null;
  onDone: () => void;
}) {
  const confirm = useConfirmPayoutDetails();
  return (
    <Card className="space-y-3" data-testid="confirm-payout-details">
      <h2 className="text-lg font-semibold text-white">{PAYOUT_CONFIRM_TEXTS.confirmTitle}</h2>
      {confirm.isSuccess ? (
        <p role="status" className="text-sm text-emerald-300">
          {confirm.data.message}
        </p>
      ) : (
        <>
          <p className="text-sm text-zinc-300">
            {pending
              ? `Payouts will go to ${describeMaskedDetails(pending)} once you confirm.`
              : 'Confirm the change of payout details you were emailed about.'}
          </p>
          {confirm.isError ? (
            <p role="alert" className="text-sm text-red-300">
              {errorMessage(confirm.error, 'The change could not be confirmed')}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-3">
            <Button disabled={confirm.isPending} onClick={() => confirm.mutate(token)}>
              {PAYOUT_CONFIRM_TEXTS.confirmButton}
            </Button>
            <Button variant="outline" onClick={onDone}>
              Not now
            </Button>
          </div>
        </>
      )}
    </Card>
  );
}
