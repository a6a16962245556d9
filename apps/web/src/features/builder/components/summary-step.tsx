/** Step 3, the read-only Summary (spec 02 §2). */
import { describeAiDisclosure } from '@tunedrop/shared/schemas/ai-disclosure';
import type { BuilderDraft } from '@tunedrop/shared/schemas/builder';
import { EMPTY_AVAILABILITY_DRAFT } from '@tunedrop/shared/schemas/release-availability';
import { Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Badge, Card } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { usePlanLock } from '../../../lib/plan-lock';
import { AvailabilityRows, draftAvailabilityView, type Slots } from '../../release-form';
import { releaseArtists } from '../model/draft';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 sm:flex-row sm:gap-4">
      <dt className="w-40 shrink-0 text-sm text-zinc-400">{label}</dt>
      <dd className="text-sm text-white">{children}</dd>
    </div>
  );
}

/** A member (record 274) reads that the account does not include it, an owner that it is a Pro feature. */
const proOnly = (isPro: boolean, value: string, isTeamMember: boolean) =>
  isPro ? (
    value || '—'
  ) : (
    <span className="text-amber-300">{isTeamMember ? 'Not included' : 'Pro feature'}</span>
  );

export function SummaryStep({
  draft,
  isPro,
  slots,
  onBack,
  onContinue,
}: {
  draft: BuilderDraft;
  isPro: boolean;
  slots: Slots;
  onBack: () => void;
  onContinue: () => void;
}) {
  const { release, tracks } = draft;
  const artists = releaseArtists(draft);
  // A team member cannot upgrade (record 274): the owner's plan is not put to them.
  const { isTeamMember } = usePlanLock();
  return (
    <Card className="space-y-6">
      <h2 className="text-xl font-semibold text-white">Summary</h2>
      <dl className="space-y-2" aria-label="Release details">
        <Row label="Release Title">{release.title}</Row>
        <Row label="Genre">{release.genre}</Row>
        <Row label="Release Date">{release.releaseDate}</Row>
        <AvailabilityRows
          releaseDate={release.releaseDate}
          availability={draftAvailabilityView(
            release.releaseDate,
            release.availability ?? EMPTY_AVAILABILITY_DRAFT,
          )}
          Row={Row}
        />
        <Row label="Tracks">{tracks.length}</Row>
        <Row label="UPC">{proOnly(isPro, release.upc, isTeamMember)}</Row>
        <Row label="Label">{proOnly(isPro, release.labelName, isTeamMember)}</Row>
        <Row label="Copyright Holder">{release.copyrightHolder}</Row>
        <Row label="Publishing Holder">{release.publishingHolder}</Row>
        <Row label="Copyright Year">{release.copyrightYear}</Row>
        <Row label="Primary Artists">{artists.primary.map((artist) => artist.name).join(', ') || '—'}</Row>
        <Row label="Featured Artists">{artists.featured.map((artist) => artist.name).join(', ') || '—'}</Row>
      </dl>

      <div>
        <h3 className="mb-2 font-semibold text-white">Tracks</h3>
        <ol className="space-y-2">
          {tracks.map((track, index) => {
            const slot = slots[track.id];
            const fileName = track.file?.name ?? (slot?.phase === 'checked' ? slot.fileName : null);
            return (
              <li key={track.id} className="rounded-lg border border-ink-700 p-3" data-testid="summary-track">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="text-sm text-zinc-400">{index + 1}.</span>
                  <span className="font-medium text-white">{track.title.trim() || `Track ${index + 1}`}</span>
                  {track.explicit ? <Badge tone="red">Explicit</Badge> : null}
                </div>
                <p className="mt-1 text-sm text-zinc-400">{fileName ?? 'No audio file uploaded'}</p>
                {isPro ? <p className="text-sm text-zinc-400">ISRC: {track.isrc || '—'}</p> : null}
                <p className="text-sm text-zinc-400">
                  {track.songwriters.length} songwriter{track.songwriters.length === 1 ? '' : 's'} ·{' '}
                  {track.producers.length} producer{track.producers.length === 1 ? '' : 's'}
                </p>
                <p className="text-sm text-zinc-400">AI use: {describeAiDisclosure(track.aiDisclosure)}</p>
              </li>
            );
          })}
        </ol>
      </div>

      {!isPro && !isTeamMember ? (
        <div className="rounded-xl border border-brand-500/40 bg-brand-600/10 p-4">
          <p className="flex items-center gap-2 font-semibold text-white">
            <Sparkles aria-hidden className="size-5 text-brand-300" /> Get more with Pro
          </p>
          <p className="mt-1 text-sm text-zinc-300">
            Add UPC and ISRC codes, your label name, editable copyright details and several primary artists,
            and get your releases reviewed in 1-2 days.
          </p>
          <Link to={paths.account} className={`${buttonClass('primary', 'sm')} mt-3`}>
            Upgrade to Pro
          </Link>
        </div>
      ) : null}

      <div className="flex flex-wrap justify-between gap-3">
        <Button variant="outline" onClick={onBack}>
          Back
        </Button>
        <Button onClick={onContinue}>Continue to Distribution</Button>
      </div>
    </Card>
  );
}
