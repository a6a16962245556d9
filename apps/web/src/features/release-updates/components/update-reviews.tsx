/**
 * Release Review: the post-release updates waiting for a decision (record 197), each with its release, its
 * artist and the before/after diff; Approve (after a confirmation) sends the change to every store holding
 * the release, Reject asks for the reason the artist is mailed.
 */
import { ADMIN_RELEASE_MESSAGES } from '@tunedrop/shared/schemas/admin-releases';
import { RELEASE_UPDATE_MESSAGES, type ReleaseUpdateView } from '@tunedrop/shared/schemas/release-updates';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Badge, Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { ReasonDialog } from '../../../components/ui/reason-dialog';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { useDecideUpdate, useUpdatesInReview } from '../api/release-updates';
import { UpdateDiff } from './update-diff';

export function ReleaseUpdateReviews() {
  const updates = useUpdatesInReview();
  const items = updates.data ?? [];
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="updates-in-review-title" className="space-y-3">
      <h2 id="updates-in-review-title" className="text-xl font-semibold text-white">
        Updates in review ({items.length})
      </h2>
      <ul className="space-y-4" aria-label="Updates in review">
        {items.map((update) => (
          <UpdateCard key={update.id} update={update} />
        ))}
      </ul>
    </section>
  );
}

/** On a release's review card: its update waiting above (the list is one cached query for the page). */
export function UpdateInReviewBadge({ releaseId }: { releaseId: string }) {
  const updates = useUpdatesInReview();
  if (!updates.data?.some((update) => update.releaseId === releaseId)) return null;
  return (
    <Badge tone="blue" data-testid="update-in-review">
      {RELEASE_UPDATE_MESSAGES.inReviewLabel}
    </Badge>
  );
}

function UpdateCard({ update }: { update: ReleaseUpdateView }) {
  const decide = useDecideUpdate();
  const [dialog, setDialog] = useState<'approve' | 'reject' | null>(null);
  const close = (open: boolean) => {
    if (!open && !decide.isPending) setDialog(null);
  };
  const onError = (error: unknown, fallback: string) => {
    // Decided by someone else meanwhile: say so; the list is refetched.
    if (error instanceof ApiError && (error.status === 409 || error.status === 404)) {
      notify.error(error.message, ADMIN_RELEASE_MESSAGES.staleTitle);
      setDialog(null);
      return;
    }
    notify.error(errorMessage(error, fallback));
  };
  return (
    <li>
      <Card className="space-y-3" aria-label={`Update to ${update.releaseTitle}`}>
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="text-lg font-semibold text-white">{update.releaseTitle}</h3>
          <span className="text-sm text-zinc-400">by {update.artistName}</span>
          <Badge tone="blue">{RELEASE_UPDATE_MESSAGES.inReviewLabel}</Badge>
          <Badge>{update.releaseStatus === 'live' ? 'Live' : 'Approved'}</Badge>
        </div>
        <UpdateDiff changes={update.changes} canListen />
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={() => setDialog('approve')} disabled={decide.isPending}>
            Approve Update
          </Button>
          <Button size="sm" variant="danger" onClick={() => setDialog('reject')} disabled={decide.isPending}>
            Reject Update
          </Button>
        </div>
      </Card>
      <ConfirmDialog
        open={dialog === 'approve'}
        onOpenChange={close}
        title="Approve Update"
        description={`"${update.releaseTitle}" takes these ${update.changes.length} change(s), and an update goes to every store that has the release. The artist is told by email.`}
        confirmLabel={decide.isPending ? 'Approving...' : 'Approve and Send'}
        isPending={decide.isPending}
        onConfirm={() =>
          decide.mutate(
            { id: update.id, decision: 'approve' },
            {
              onSuccess: () => {
                notify.success(RELEASE_UPDATE_MESSAGES.approved, `"${update.releaseTitle}"`);
                setDialog(null);
              },
              onError: (error) => onError(error, RELEASE_UPDATE_MESSAGES.approveFailed),
            },
          )
        }
      />
      <ReasonDialog
        open={dialog === 'reject'}
        onOpenChange={close}
        title="Reject Update"
        description={`The stores keep "${update.releaseTitle}" as it is. Tell the artist why; they are mailed this reason.`}
        label="Rejection reason"
        confirmLabel="Reject Update"
        pendingLabel="Rejecting..."
        requiredTitle={ADMIN_RELEASE_MESSAGES.rejectionReasonRequiredTitle}
        requiredMessage={ADMIN_RELEASE_MESSAGES.rejectionReasonRequired}
        isPending={decide.isPending}
        onConfirm={(reason) =>
          decide.mutate(
            { id: update.id, decision: 'reject', reason },
            {
              onSuccess: () => {
                notify.success(RELEASE_UPDATE_MESSAGES.rejected, `"${update.releaseTitle}"`);
                setDialog(null);
              },
              onError: (error) => onError(error, RELEASE_UPDATE_MESSAGES.rejectFailed),
            },
          )
        }
      />
    </li>
  );
}
