/**
 * New payout details waiting for the owner's confirmation by email (issue 38, record 314): said in plain
 * words, with what is in force meanwhile, and Resend for whoever may change the details.
 */
import { PAYOUT_CONFIRM_TEXTS, type PendingPayoutDetails } from '@tunedrop/shared/schemas/payout-details';
import { describeMaskedDetails, type MaskedPaymentDetails } from '@tunedrop/shared/schemas/wallet';
import { MailCheck } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useViewer, viewerFacts } from '../../../lib/viewer';
import { useResendPayoutConfirmation } from '../api/wallet';

export function PendingPayoutDetailsNotice({
  pending,
  current,
  canResend,
}: {
  pending: PendingPayoutDetails;
  current: MaskedPaymentDetails | null;
  canResend: boolean;
}) {
  const resend = useResendPayoutConfirmation();
  const { data: viewer } = useViewer();
  const isOwner = viewer ? !viewerFacts(viewer).isTeamMember : false;
  const isExpired = new Date(pending.linkExpiresAt).getTime() <= Date.now();
  return (
    <Card className="space-y-3 border-amber-500/40" data-testid="pending-payout-details">
      <h2 className="flex items-center gap-2 text-lg font-semibold text-white">
        <MailCheck aria-hidden className="size-5 text-amber-300" />
        {PAYOUT_CONFIRM_TEXTS.pendingTitle}
      </h2>
      <p className="text-sm text-zinc-300">
        {PAYOUT_CONFIRM_TEXTS.pending(
          describeMaskedDetails(pending.details),
          pending.sentTo,
          current ? describeMaskedDetails(current) : null,
          isOwner,
        )}
      </p>
      {isExpired ? <p className="text-sm text-amber-200">{PAYOUT_CONFIRM_TEXTS.linkExpired}</p> : null}
      {canResend ? (
        <Button
          variant="outline"
          disabled={resend.isPending}
          onClick={() =>
            resend.mutate(undefined, {
              onSuccess: (result) =>
                notify.success(PAYOUT_CONFIRM_TEXTS.resent(result.pendingConfirmation.sentTo)),
              onError: (error) => notify.error(errorMessage(error, 'The link could not be sent')),
            })
          }
        >
          {PAYOUT_CONFIRM_TEXTS.resend}
        </Button>
      ) : null}
    </Card>
  );
}
