/**
 * The Content ID panel of the owner's release page (issue 28, record 185): each track's Content ID state
 * with opt-in (after the eligibility questions) and opt-out, and the artist's channel allow-list. Content ID
 * is a Pro feature: a Basic artist sees what it does and the way to upgrade, as with analytics.
 */
import { CONTENT_ID_MESSAGES, type ContentIdTrackView } from '@tunedrop/shared/schemas/content-id';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Badge, Card, Spinner } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { notify } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { useAccountCan } from '../../../lib/viewer';
import { useOptTrackOut, useReleaseContentId } from '../api/content-id';
import { ChannelAllowList } from './channel-allow-list';
import { ContentIdProGate, useContentIdAccess } from './content-id-pro-gate';
import { EligibilityDialog } from './eligibility-dialog';

const STATE_BADGE = {
  opted_in: { tone: 'green', label: 'Protected' },
  opted_out: { tone: 'neutral', label: 'Opted out' },
  not_opted_in: { tone: 'neutral', label: 'Not protected' },
} as const;

export function ReleaseContentIdSection({ releaseId }: { releaseId: string }) {
  const access = useContentIdAccess();
  return (
    <section aria-labelledby="content-id-title" className="space-y-4" data-testid="content-id-section">
      <div>
        <h2 id="content-id-title" className="flex items-center gap-2 text-xl font-semibold text-white">
          <ShieldCheck aria-hidden className="size-5 text-brand-400" /> YouTube Content ID
        </h2>
        <p className="text-sm text-zinc-400">
          Content ID finds your recordings in YouTube videos so you earn from them.{' '}
          {CONTENT_ID_MESSAGES.startsOnDelivery}
        </p>
      </div>
      {!access ? null : access.isAllowed ? (
        <ContentIdTracks releaseId={releaseId} />
      ) : (
        <ContentIdProGate isPro={access.isPro} />
      )}
    </section>
  );
}

function ContentIdTracks({ releaseId }: { releaseId: string }) {
  const view = useReleaseContentId(releaseId, true);
  const optOut = useOptTrackOut(releaseId);
  // Opting in and out is Catalog's (record 205); other roles read the states, the server refuses them.
  const isCatalog = useAccountCan()('catalog');
  const [asking, setAsking] = useState<ContentIdTrackView | null>(null);
  const [leaving, setLeaving] = useState<ContentIdTrackView | null>(null);

  if (view.isPending) return <Spinner className="text-brand-400" />;
  if (view.isError)
    return (
      <p role="alert" className="text-sm text-red-400">
        Content ID could not be loaded.
      </p>
    );
  return (
    <Card className="space-y-6">
      <ul className="divide-y divide-ink-700" aria-label="Tracks and their Content ID state">
        {view.data.tracks.map((track) => {
          const badge = STATE_BADGE[track.state];
          return (
            <li
              key={track.trackId}
              className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
              data-testid="content-id-track"
            >
              <div className="min-w-0">
                <p className="break-words text-zinc-100">
                  {track.position}. {track.title}
                </p>
                <p className="flex flex-wrap items-center gap-2 text-xs text-zinc-400">
                  <Badge tone={badge.tone}>{badge.label}</Badge>
                  {track.changedAt ? <span>since {formatDate(track.changedAt)}</span> : null}
                </p>
              </div>
              {!isCatalog ? null : track.state === 'opted_in' ? (
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Opt out ${track.title}`}
                  onClick={() => setLeaving(track)}
                >
                  Opt out
                </Button>
              ) : (
                <Button size="sm" aria-label={`Opt in ${track.title}`} onClick={() => setAsking(track)}>
                  Opt in
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <ChannelAllowList />
      <p className="text-sm text-zinc-400">
        <Link to={paths.contentIdClaims} className="text-brand-300 underline underline-offset-2">
          See the videos your tracks claim
        </Link>{' '}
        with their views and earnings.
      </p>
      <EligibilityDialog releaseId={releaseId} track={asking} onClose={() => setAsking(null)} />
      <ConfirmDialog
        open={leaving !== null}
        onOpenChange={(open) => (open ? undefined : setLeaving(null))}
        title={`Opt “${leaving?.title ?? ''}” out of Content ID?`}
        description="Videos using this recording will no longer be claimed for you. You can opt in again later."
        confirmLabel="Opt out"
        isDestructive
        isPending={optOut.isPending}
        onConfirm={() => {
          if (!leaving) return;
          optOut.mutate(leaving.trackId, {
            onSuccess: () => {
              notify.success(CONTENT_ID_MESSAGES.optedOut);
              setLeaving(null);
            },
            onError: (error) => notify.error(errorMessage(error, 'The track could not be opted out.')),
          });
        }}
      />
    </Card>
  );
}
