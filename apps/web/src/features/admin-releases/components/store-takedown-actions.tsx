/** The takedown tab's per-store requests (issue 26): approve or reject each store's takedown, confirmed. */
import { type PlatformId, platformName } from '@tunedrop/shared';
import { ADMIN_RELEASE_MESSAGES, type AdminReleaseCard } from '@tunedrop/shared/schemas/admin-releases';
import { DELIVERY_MESSAGES } from '@tunedrop/shared/schemas/delivery';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { ReasonDialog } from '../../../components/ui/reason-dialog';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useApproveStoreTakedown, useRejectStoreTakedown } from '../api/store-takedown';

export function StoreTakedownActions({ release, artists }: { release: AdminReleaseCard; artists: string }) {
  const [storeToApprove, setStoreToApprove] = useState<PlatformId | null>(null);
  const approveStore = useApproveStoreTakedown();
  const [storeToReject, setStoreToReject] = useState<PlatformId | null>(null);
  const rejectStore = useRejectStoreTakedown();
  return (
    <>
      {release.storeTakedownRequests.map((request) => (
        <Button
          key={request.platformId}
          size="sm"
          onClick={() => setStoreToApprove(request.platformId)}
          disabled={approveStore.isPending}
        >
          <Check aria-hidden className="size-4" /> Approve Takedown from {platformName(request.platformId)}
        </Button>
      ))}
      {release.storeTakedownRequests.map((request) => (
        <Button
          key={`reject-${request.platformId}`}
          size="sm"
          variant="danger"
          onClick={() => setStoreToReject(request.platformId)}
          disabled={rejectStore.isPending}
        >
          <X aria-hidden className="size-4" /> Reject takedown from {platformName(request.platformId)}
        </Button>
      ))}
      <ConfirmDialog
        open={storeToApprove !== null}
        onOpenChange={(open) => {
          if (!open && !approveStore.isPending) setStoreToApprove(null);
        }}
        title="Approve Takedown"
        description={`"${release.title}" by ${artists} will be taken down from ${
          storeToApprove ? platformName(storeToApprove) : ''
        } only: a takedown message goes to the target that serves it, and the release stays in its other stores.`}
        confirmLabel={approveStore.isPending ? 'Approving...' : 'Approve Takedown'}
        isDestructive
        isPending={approveStore.isPending}
        onConfirm={() => {
          if (!storeToApprove) return;
          approveStore.mutate(
            { releaseId: release.id, platformId: storeToApprove },
            {
              onSuccess: () => {
                notify.success(ADMIN_RELEASE_MESSAGES.takedownApproved);
                setStoreToApprove(null);
              },
              onError: () => notify.error(ADMIN_RELEASE_MESSAGES.takedownApproveFailed),
            },
          );
        }}
      />
      <ReasonDialog
        open={storeToReject !== null}
        onOpenChange={(open) => {
          if (!open && !rejectStore.isPending) setStoreToReject(null);
        }}
        title={`Reject takedown from ${storeToReject ? platformName(storeToReject) : ''}`}
        description={`"${release.title}" by ${artists} stays live in ${
          storeToReject ? platformName(storeToReject) : ''
        }. The artist is mailed this reason and may ask again.`}
        label="Reason"
        confirmLabel="Reject Takedown"
        pendingLabel="Rejecting..."
        requiredTitle="Reason required"
        requiredMessage={DELIVERY_MESSAGES.storeTakedownReasonRequired}
        isPending={rejectStore.isPending}
        onConfirm={(reason) => {
          if (!storeToReject) return;
          rejectStore.mutate(
            { releaseId: release.id, platformId: storeToReject, reason },
            {
              onSuccess: () => {
                notify.success(DELIVERY_MESSAGES.storeTakedownRejected);
                setStoreToReject(null);
              },
              onError: (error) => notify.error(errorMessage(error, 'Failed to reject the takedown request')),
            },
          );
        }}
      />
    </>
  );
}
