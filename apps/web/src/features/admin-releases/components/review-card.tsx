import { platformName } from '@tunedrop/shared';
import {
  ADMIN_RELEASE_MESSAGES,
  type AdminReleaseCard,
  type AdminReleaseTab,
  uploaderSubscriptionNote,
} from '@tunedrop/shared/schemas/admin-releases';
import { NEEDS_ACTION_LABEL } from '@tunedrop/shared/schemas/delivery';
import { describeReleaseTime, describeTerritories } from '@tunedrop/shared/schemas/release-availability';
import {
  AlertTriangle,
  Ban,
  Check,
  ChevronDown,
  ChevronUp,
  FileArchive,
  RotateCcw,
  ShieldCheck,
  Trash2,
  X,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Badge, Card } from '../../../components/ui/card';
import { CoverThumb } from '../../../components/ui/cover-thumb';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { ReasonDialog } from '../../../components/ui/reason-dialog';
import { StatusBadge } from '../../../components/ui/status-badge';
import { notify } from '../../../components/ui/toast';
import { formatDate } from '../../../lib/format';
import { exportRelease } from '../api/release-files';
import type { ReviewAction } from '../api/review-actions';
import { MetadataPanel } from './metadata-panel';
import { PreflightNotes } from './preflight-notes';
import { StoreTakedownActions } from './store-takedown-actions';
import { TrackAudio } from './track-audio';

type DialogName =
  | 'approve'
  | 'takedown-approve'
  | 'reject'
  | 'unapprove'
  | 'unreject'
  | 'delete'
  | 'delete-final'
  | 'ban'
  | 'unban';

export function ReviewCard({
  release,
  tab,
  onAction,
  isPending,
  selection,
  updateBadge,
}: {
  release: AdminReleaseCard;
  tab: AdminReleaseTab;
  onAction: (action: ReviewAction, release: AdminReleaseCard, reason?: string) => Promise<boolean>;
  isPending: boolean;
  /** The Pending tab's bulk selection (issue 26): a checkbox beside the title. */
  selection?: { isSelected: boolean; onChange: (isSelected: boolean) => void };
  /** Its post-release update in review, if any (features/release-updates, given by app/pages). */
  updateBadge: ReactNode;
}) {
  const [isMetadataOpen, setIsMetadataOpen] = useState(false);
  const [dialog, setDialog] = useState<DialogName | null>(null);
  const [isExporting, setIsExporting] = useState(false);
  const headingId = `review-${release.id}-title`;
  const metadataId = `review-${release.id}-metadata`;

  const run = async (action: ReviewAction, reason?: string) => {
    const isDone = await onAction(action, release, reason);
    if (isDone) setDialog(null);
  };

  const onExport = async () => {
    setIsExporting(true);
    try {
      await exportRelease(release.id);
    } catch {
      notify.error(ADMIN_RELEASE_MESSAGES.exportFailed, ADMIN_RELEASE_MESSAGES.exportFailedTitle);
    } finally {
      setIsExporting(false);
    }
  };

  // A lapsed or ending subscription, said on the card and again in the approve dialog (issue 26).
  const subscriptionNote = uploaderSubscriptionNote(release.uploader.subscription, formatDate);
  const artists = release.primaryArtists.map((artist) => artist.name).join(', ');

  const closeUnlessPending = (open: boolean) => {
    if (!open && !isPending) setDialog(null);
  };

  return (
    <li>
      <Card className="space-y-4" aria-labelledby={headingId}>
        <div className="flex flex-col gap-4 sm:flex-row">
          <CoverThumb src={release.coverUrl} alt={`Cover of ${release.title}`} size={112} />
          <div className="min-w-0 flex-1 space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              {selection ? (
                <input
                  type="checkbox"
                  className="size-4 accent-brand-500"
                  aria-label={`Select "${release.title}"`}
                  checked={selection.isSelected}
                  onChange={(event) => selection.onChange(event.target.checked)}
                />
              ) : null}
              <h2 id={headingId} className="text-lg font-semibold text-white">
                {release.title}
              </h2>
              <StatusBadge kind="release" status={release.status} />
              {release.storeRejections.length > 0 ? (
                <Badge tone="red" data-testid="needs-action">
                  {NEEDS_ACTION_LABEL}
                </Badge>
              ) : null}
              {updateBadge}
              {release.isTakedownRequested ? (
                <Badge tone="yellow">
                  Takedown requested
                  {release.takedownRequestedAt ? ` ${formatDate(release.takedownRequestedAt)}` : ''}
                </Badge>
              ) : null}
            </div>
            <p className="text-sm text-zinc-300">
              {release.primaryArtists.map((artist) => artist.name).join(', ')}
            </p>
            <p className="text-xs text-zinc-400">
              Submitted {formatDate(release.createdAt)} · {release.tracks.length}{' '}
              {release.tracks.length === 1 ? 'track' : 'tracks'}
            </p>
            {/* Release time and territories (record 199): what the deals will say, before approving. */}
            <p className="text-xs text-zinc-300" data-testid="release-availability">
              <span className="text-zinc-400">Release time:</span>{' '}
              {describeReleaseTime({ releaseDate: release.releaseDate, ...release.availability })}
              <span className="text-zinc-400"> · Territories:</span>{' '}
              {describeTerritories(release.availability)}
            </p>
            <p className="text-sm text-zinc-300">
              Uploaded by <span className="font-medium text-white">{release.uploader.artistName}</span> (
              {release.uploader.email})
              {release.uploader.isBanned ? (
                <Badge tone="red" className="ml-2">
                  Banned
                </Badge>
              ) : null}
            </p>
            {subscriptionNote ? (
              <p
                className={`flex items-center gap-1.5 text-sm ${
                  release.uploader.subscription.standing === 'lapsed' ? 'text-red-300' : 'text-amber-300'
                }`}
              >
                <AlertTriangle aria-hidden className="size-4 shrink-0" /> {subscriptionNote}
              </p>
            ) : null}
            {release.uploader.isBanned && release.uploader.banReason ? (
              <p className="text-xs text-red-300">Ban reason: {release.uploader.banReason}</p>
            ) : null}
            {release.storeRejections.map((rejection) => (
              <p
                key={`${rejection.target}-${rejection.at}`}
                className="rounded-md border border-red-500/30 bg-red-500/10 px-3 py-2 text-sm text-red-200"
              >
                <span className="font-medium">{rejection.target} rejected it:</span> {rejection.reason}
              </p>
            ))}
            {release.storeTakedownRequests.length > 0 ? (
              <p className="text-sm text-amber-200" data-testid="store-takedown-requests">
                Takedown requested from:{' '}
                {release.storeTakedownRequests
                  .map(
                    (request) => `${platformName(request.platformId)} (${formatDate(request.requestedAt)})`,
                  )
                  .join(', ')}
              </p>
            ) : null}
            <PreflightNotes release={release} />
            {release.status === 'rejected' && release.rejectionReason ? (
              <p className="rounded-md border border-red-500/30 bg-red-500/10 px-3 py-2 text-sm text-red-200">
                <span className="font-medium">Rejection reason:</span> {release.rejectionReason}
              </p>
            ) : null}
          </div>
        </div>

        <ul className="space-y-2" aria-label={`Audio of ${release.title}`}>
          {release.tracks.map((track) => (
            <TrackAudio key={track.id} track={track} />
          ))}
        </ul>

        <div>
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={isMetadataOpen}
            aria-controls={metadataId}
            onClick={() => setIsMetadataOpen((open) => !open)}
          >
            {isMetadataOpen ? (
              <ChevronUp aria-hidden className="size-4" />
            ) : (
              <ChevronDown aria-hidden className="size-4" />
            )}
            {isMetadataOpen ? 'Hide metadata' : 'Show metadata'}
          </Button>
          {isMetadataOpen ? <MetadataPanel release={release} id={metadataId} /> : null}
        </div>

        <div className="flex flex-wrap gap-2 border-t border-ink-700 pt-4">
          {tab === 'pending' ? (
            <>
              <Button size="sm" onClick={() => setDialog('approve')} disabled={isPending}>
                <Check aria-hidden className="size-4" /> Approve
              </Button>
              <Button size="sm" variant="danger" onClick={() => setDialog('reject')} disabled={isPending}>
                <X aria-hidden className="size-4" /> Reject
              </Button>
            </>
          ) : null}
          {tab === 'approved' ? (
            <Button size="sm" variant="outline" onClick={() => setDialog('unapprove')} disabled={isPending}>
              <RotateCcw aria-hidden className="size-4" /> Unapprove
            </Button>
          ) : null}
          {tab === 'takedown' && release.isTakedownRequested ? (
            <>
              <Button size="sm" onClick={() => setDialog('takedown-approve')} disabled={isPending}>
                <Check aria-hidden className="size-4" /> Approve Takedown
              </Button>
              <Button size="sm" variant="outline" onClick={() => run('takedown_reject')} disabled={isPending}>
                <X aria-hidden className="size-4" /> Reject Takedown
              </Button>
            </>
          ) : null}
          {tab === 'takedown' ? <StoreTakedownActions release={release} artists={artists} /> : null}
          {tab === 'rejected' ? (
            <Button size="sm" variant="outline" onClick={() => setDialog('unreject')} disabled={isPending}>
              <RotateCcw aria-hidden className="size-4" /> Unreject
            </Button>
          ) : null}
          {tab === 'approved' || tab === 'rejected' || tab === 'takendown' ? (
            <Button size="sm" variant="danger" onClick={() => setDialog('delete')} disabled={isPending}>
              <Trash2 aria-hidden className="size-4" /> Delete
            </Button>
          ) : null}
          <Button size="sm" variant="secondary" onClick={onExport} disabled={isExporting}>
            <FileArchive aria-hidden className="size-4" /> {isExporting ? 'Exporting...' : 'Export'}
          </Button>
          {release.uploader.isBanned ? (
            <Button size="sm" variant="outline" onClick={() => setDialog('unban')} disabled={isPending}>
              <ShieldCheck aria-hidden className="size-4" /> Unban User
            </Button>
          ) : (
            <Button size="sm" variant="outline" onClick={() => setDialog('ban')} disabled={isPending}>
              <Ban aria-hidden className="size-4" /> Ban User
            </Button>
          )}
        </div>
      </Card>

      <ConfirmDialog
        open={dialog === 'approve'}
        onOpenChange={closeUnlessPending}
        title="Approve Release"
        description={
          <ApproveSummary release={release} artists={artists} subscriptionNote={subscriptionNote} />
        }
        confirmLabel={isPending ? 'Approving...' : 'Approve and Deliver'}
        isPending={isPending}
        onConfirm={() => run('approve')}
      />
      <ConfirmDialog
        open={dialog === 'takedown-approve'}
        onOpenChange={closeUnlessPending}
        title="Approve Takedown"
        description={`"${release.title}" by ${artists} will be taken down: a takedown message goes to every store it was delivered to, and it shows "Takedown in progress" until each store confirms (a release never delivered is taken down at once). The artist is told by email.`}
        confirmLabel={isPending ? 'Approving...' : 'Approve Takedown'}
        isDestructive
        isPending={isPending}
        onConfirm={() => run('takedown_approve')}
      />
      <ReasonDialog
        open={dialog === 'reject'}
        onOpenChange={closeUnlessPending}
        title="Reject Release"
        description={`Tell the artist why "${release.title}" cannot be distributed. They will see this reason.`}
        label="Rejection reason"
        confirmLabel="Reject Release"
        requiredTitle={ADMIN_RELEASE_MESSAGES.rejectionReasonRequiredTitle}
        requiredMessage={ADMIN_RELEASE_MESSAGES.rejectionReasonRequired}
        isPending={isPending}
        onConfirm={(reason) => run('reject', reason)}
      />
      <ReasonDialog
        open={dialog === 'ban'}
        onOpenChange={closeUnlessPending}
        title="Ban User"
        description={`${release.uploader.artistName} (${release.uploader.email}) will no longer be able to upload music.`}
        label="Ban reason"
        confirmLabel="Ban User"
        requiredTitle={ADMIN_RELEASE_MESSAGES.banReasonRequiredTitle}
        requiredMessage={ADMIN_RELEASE_MESSAGES.banReasonRequired}
        isPending={isPending}
        onConfirm={(reason) => run('ban', reason)}
      />
      <ConfirmDialog
        open={dialog === 'unapprove'}
        onOpenChange={closeUnlessPending}
        title="Unapprove Release"
        description={`"${release.title}" will go back to Pending.`}
        confirmLabel="Unapprove"
        isPending={isPending}
        onConfirm={() => run('unapprove')}
      />
      <ConfirmDialog
        open={dialog === 'unreject'}
        onOpenChange={closeUnlessPending}
        title="Unreject Release"
        description={`"${release.title}" will go back to Pending and its rejection reason will be cleared.`}
        confirmLabel="Unreject"
        isPending={isPending}
        onConfirm={() => run('unreject')}
      />
      <ConfirmDialog
        open={dialog === 'unban'}
        onOpenChange={closeUnlessPending}
        title="Unban User"
        description={`${release.uploader.artistName} (${release.uploader.email}) will be able to upload music again.`}
        confirmLabel="Unban User"
        isPending={isPending}
        onConfirm={() => run('unban')}
      />
      <ConfirmDialog
        open={dialog === 'delete'}
        onOpenChange={closeUnlessPending}
        title="Delete Release Permanently"
        description={`"${release.title}" will be removed with its tracks, credits and files.`}
        confirmLabel="Continue"
        isDestructive
        onConfirm={() => setDialog('delete-final')}
      />
      <ConfirmDialog
        open={dialog === 'delete-final'}
        onOpenChange={closeUnlessPending}
        title="Are you absolutely sure?"
        description={`This permanently deletes "${release.title}". This action cannot be undone.`}
        confirmLabel="Delete Permanently"
        isDestructive
        isPending={isPending}
        onConfirm={() => run('delete')}
      />
    </li>
  );
}

/** What approving does: codes now, delivery to the selected stores, the artist's mail (issue 26). */
function ApproveSummary({
  release,
  artists,
  subscriptionNote,
}: {
  release: AdminReleaseCard;
  artists: string;
  subscriptionNote: string | null;
}) {
  const stores = release.distributionStores;
  return (
    <span className="block space-y-2">
      <span className="block">
        "{release.title}" by {artists} will be approved. It gets its UPC and ISRCs (codes the artist supplied
        are kept), then{' '}
        {stores.length > 0
          ? `it is delivered to ${stores.length} ${stores.length === 1 ? 'store' : 'stores'}: ${stores
              .map(platformName)
              .join(', ')}.`
          : 'no store is selected, so nothing is delivered.'}{' '}
        The artist is told by email.
      </span>
      {subscriptionNote ? (
        <span className="block rounded-md bg-amber-500/10 px-2 py-1 text-amber-200">
          Heads up: {subscriptionNote}
        </span>
      ) : null}
    </span>
  );
}
