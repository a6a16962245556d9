/** One release in My Songs: cover, title, artists, track count, status, takedown and rejection notes, actions. */

import { RELEASE_UPDATE_MESSAGES } from '@tunedrop/shared/schemas/release-updates';
import {
  canRequestTakedown,
  isReleaseEditable,
  type MySongItem,
  RELEASE_MESSAGES,
} from '@tunedrop/shared/schemas/releases';
import { Eye, Pencil, Wrench, XCircle } from 'lucide-react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Badge, Card } from '../../../components/ui/card';
import { CoverThumb } from '../../../components/ui/cover-thumb';
import { paths } from '../../../config/paths';
import { useAccountCan, useViewer, viewerFacts } from '../../../lib/viewer';
import { NeedsActionBadge, StoreRejectionNotice } from './needs-action';
import { ReleaseStatusBadge } from './release-status-badge';

export function SongCard({
  release,
  onRequestTakedown,
}: {
  release: MySongItem;
  onRequestTakedown: (release: MySongItem) => void;
}) {
  const headingId = `release-${release.id}-title`;
  // After a lapse My Songs is read-only (decision 120): no edit or fix links that would hit the gate.
  // Edits and takedowns are Catalog's (record 205).
  const { data: viewer } = useViewer();
  const isCatalog = useAccountCan()('catalog');
  const canChange = viewer ? viewerFacts(viewer).passesGate && isCatalog : false;
  return (
    <li>
      <Card className="flex flex-col gap-4 sm:flex-row sm:items-center" aria-labelledby={headingId}>
        <CoverThumb src={release.coverUrl} alt={`Cover of ${release.title}`} size={72} />
        <div className="min-w-0 flex-1 space-y-1">
          <h2 id={headingId} className="truncate text-lg font-semibold text-white">
            <Link
              to={paths.releaseDetail(release.id)}
              className="rounded hover:text-brand-300 hover:underline focus-visible:outline-2 focus-visible:outline-brand-400"
            >
              {release.title}
            </Link>
          </h2>
          <p className="truncate text-sm text-zinc-300">{release.primaryArtists.join(', ')}</p>
          <p className="text-xs text-zinc-400">
            {release.trackCount} {release.trackCount === 1 ? 'track' : 'tracks'}
          </p>
          <div className="flex flex-wrap gap-2 pt-1">
            <ReleaseStatusBadge status={release.status} />
            <NeedsActionBadge rejections={release.storeRejections} />
            {release.updateInReview ? (
              <Badge tone="blue" data-testid="update-in-review">
                {RELEASE_UPDATE_MESSAGES.inReviewLabel}
              </Badge>
            ) : null}
            {release.isTakedownPending ? (
              <Badge tone="yellow">{RELEASE_MESSAGES.takedownPending}</Badge>
            ) : null}
          </div>
          <StoreRejectionNotice rejections={release.storeRejections} />
          {release.status === 'rejected' && release.rejectionReason ? (
            <p className="rounded-md border border-red-500/30 bg-red-500/10 px-3 py-2 text-sm text-red-200">
              <span className="font-medium">Rejection reason:</span> {release.rejectionReason}
            </p>
          ) : null}
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Link
            to={paths.releaseDetail(release.id)}
            className={buttonClass('outline', 'sm')}
            aria-label={`View ${release.title}`}
          >
            <Eye aria-hidden className="size-4" /> View
          </Link>
          {!canChange ? null : release.status === 'rejected' ? (
            <Link to={paths.releaseDetail(release.id)} className={buttonClass('outline', 'sm')}>
              <Wrench aria-hidden className="size-4" /> Fix and resubmit
            </Link>
          ) : isReleaseEditable(release.status) ? (
            <Link to={paths.editRelease(release.id)} className={buttonClass('outline', 'sm')}>
              <Pencil aria-hidden className="size-4" /> Edit Release
            </Link>
          ) : null}
          {isCatalog && canRequestTakedown(release.status, release.isTakedownPending) ? (
            <Button variant="outline" size="sm" onClick={() => onRequestTakedown(release)}>
              <XCircle aria-hidden className="size-4" /> Request Takedown
            </Button>
          ) : null}
        </div>
      </Card>
    </li>
  );
}
