/**
 * /dashboard/releases/:id (issue 15): the owner's release page: cover, metadata, codes, tracks with
 * ISRCs, durations, credits and a player for the owner's own files, a row per store with its state and
 * date, the status history, and for a rejected release the fix / resubmit / delete panel (issue 18).
 * The sections of other features (an update's status, Content ID, splits) are given by the page that
 * composes it, app/pages/release-detail-page.tsx (features never import features, issue 37).
 */
import type { ReleaseDetail } from '@tunedrop/shared/schemas/delivery';
import { describeReleaseTime, describeTerritories } from '@tunedrop/shared/schemas/release-availability';
import { RELEASE_MESSAGES } from '@tunedrop/shared/schemas/releases';
import { ArrowLeft, Clock, Pencil } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Badge, Card, PageLoader } from '../../../components/ui/card';
import { CoverThumb } from '../../../components/ui/cover-thumb';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api';
import { useReleaseUpdate } from '../../../lib/release-updates';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAccountCan, useViewer, viewerFacts } from '../../../lib/viewer';
import { useReleaseDetail } from '../api/get-release-detail';
import { formatDate } from '../lib/format';
import { NeedsActionBadge, StoreRejectionNotice } from './needs-action';
import { ProposeUpdateDialog } from './propose-update';
import { RejectedActions } from './rejected-actions';
import { ReleaseHistory } from './release-history';
import { ReleaseStatusBadge } from './release-status-badge';
import { ReleaseStores } from './release-stores';
import { ReleaseTracks } from './release-tracks';

/** What other features show on the release page, given by the page that composes it. */
export interface ReleaseDetailSlots {
  /** Under the header: the post-release update's status (features/release-updates). */
  updateStatus: (releaseId: string) => ReactNode;
  /** After the tracks: Content ID and the splits (features/content-id, features/splits). */
  sections: (releaseId: string) => ReactNode;
}

export function ReleaseDetailView({ updateStatus, sections }: ReleaseDetailSlots) {
  const { id = '' } = useParams();
  const release = useReleaseDetail(id);
  usePageTitle(release.data?.title ?? 'Release');

  const back = (
    <Link to={paths.songs} className={buttonClass('ghost', 'sm')}>
      <ArrowLeft aria-hidden className="size-4" /> My Songs
    </Link>
  );

  if (release.isPending) return <PageLoader />;
  if (release.isError) {
    const isMissing = release.error instanceof ApiError && release.error.status === 404;
    return (
      <div className="space-y-6">
        {back}
        <Card className="space-y-3 text-center">
          <h1 className="text-xl font-semibold text-white">
            {isMissing ? RELEASE_MESSAGES.notFound : RELEASE_MESSAGES.loadFailed}
          </h1>
          {isMissing ? (
            <p className="text-sm text-zinc-400">
              It may have been deleted, or it belongs to another account.
            </p>
          ) : (
            <Button variant="outline" onClick={() => release.refetch()}>
              Try again
            </Button>
          )}
        </Card>
      </div>
    );
  }
  return (
    <div className="space-y-8">
      {back}
      <ReleaseHeader release={release.data} />
      {release.data.status === 'rejected' ? <RejectedActions release={release.data} /> : null}
      {updateStatus(release.data.id)}
      <ReleaseMetadata release={release.data} />
      <ReleaseStores release={release.data} />
      <ReleaseTracks releaseId={release.data.id} tracks={release.data.tracks} />
      {sections(release.data.id)}
      <ReleaseHistory events={release.data.statusHistory} />
    </div>
  );
}

function ReleaseHeader({ release }: { release: ReleaseDetail }) {
  // After a lapse the page is read-only (decision 120): the edit link would only meet the gate.
  // Edits and updates are Catalog's (record 205).
  const { data: viewer } = useViewer();
  const isCatalog = useAccountCan()('catalog');
  const canChange = viewer ? viewerFacts(viewer).passesGate && isCatalog : false;
  // Post-release edits (record 197): an approved or live release changes through an update in review.
  const update = useReleaseUpdate(release.id);
  const [isUpdateOpen, setIsUpdateOpen] = useState(false);
  const canUpdate =
    canChange &&
    (release.status === 'approved' || release.status === 'live') &&
    !release.takedownRequested &&
    update.isSuccess &&
    update.data?.state !== 'in_review';
  const artists = [
    release.primaryArtists.join(', '),
    release.featuredArtists.length > 0 ? `feat. ${release.featuredArtists.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const trackCount = release.tracks.length;
  return (
    <div className="flex flex-col gap-5 sm:flex-row sm:items-end">
      <CoverThumb
        src={release.coverUrl}
        alt={`Cover of ${release.title}`}
        size={176}
        className="rounded-xl shadow-lg"
      />
      <div className="min-w-0 flex-1 space-y-2">
        <h1 className="text-3xl font-bold break-words text-white">{release.title}</h1>
        <p className="text-zinc-300 break-words">{artists}</p>
        <p className="text-sm text-zinc-400">
          {trackCount} {trackCount === 1 ? 'track' : 'tracks'} · {release.genre} · Release date{' '}
          <time dateTime={release.releaseDate}>{formatDate(release.releaseDate)}</time>
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <ReleaseStatusBadge status={release.status} />
          <NeedsActionBadge rejections={release.storeRejections} />
          {release.takedownRequested ? <Badge tone="yellow">{RELEASE_MESSAGES.takedownPending}</Badge> : null}
        </div>
        <StoreRejectionNotice rejections={release.storeRejections} />
      </div>
      {canChange && (release.status === 'pending' || release.status === 'processing') ? (
        <Link to={paths.editRelease(release.id)} className={buttonClass('outline', 'sm')}>
          <Pencil aria-hidden className="size-4" /> Edit Release
        </Link>
      ) : null}
      {canUpdate && viewer ? (
        <>
          <Button variant="outline" size="sm" onClick={() => setIsUpdateOpen(true)}>
            <Pencil aria-hidden className="size-4" /> Update Release
          </Button>
          <ProposeUpdateDialog
            release={release}
            open={isUpdateOpen}
            onOpenChange={setIsUpdateOpen}
            isPro={viewerFacts(viewer).isPro}
            artistName={viewer.profile.artistName}
          />
        </>
      ) : null}
    </div>
  );
}

function ReleaseMetadata({ release }: { release: ReleaseDetail }) {
  const rows: [string, React.ReactNode][] = [
    [
      'UPC',
      <span key="upc" className="font-mono" data-testid="release-upc">
        {release.upc ?? (release.codesPending ? 'Being assigned' : 'Assigned at approval')}
      </span>,
    ],
    ['Release date', formatDate(release.releaseDate)],
    // Release time and territories (record 199).
    ['Release time', describeReleaseTime({ releaseDate: release.releaseDate, ...release.availability })],
    ['Territories', describeTerritories(release.availability)],
    ...(release.originalReleaseDate
      ? ([['Original release date', formatDate(release.originalReleaseDate)]] as [string, string][])
      : []),
    ['Genre', release.genre],
    ['Label', release.labelName ?? 'Independent'],
    ['Copyright', `© ${release.copyrightYear} ${release.copyrightHolder}`],
    ['Publishing', `℗ ${release.publishingYear} ${release.publishingHolder}`],
  ];
  return (
    <section aria-labelledby="details-title" className="space-y-3">
      <h2 id="details-title" className="text-xl font-semibold text-white">
        Details
      </h2>
      {release.codesPending ? (
        <p
          role="status"
          className="flex items-start gap-2 rounded-lg border border-amber-500/30 bg-amber-500/10 px-3 py-2 text-sm text-amber-100"
        >
          <Clock aria-hidden className="mt-0.5 size-4 shrink-0" />
          Your release is approved and waiting for its codes (ISRC and UPC). It is sent to the stores as soon
          as they are assigned; nothing is needed from you.
        </p>
      ) : null}
      <Card>
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-zinc-400">{label}</dt>
              <dd className="break-words text-zinc-100">{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
    </section>
  );
}
