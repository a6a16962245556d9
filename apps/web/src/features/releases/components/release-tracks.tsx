/**
 * The track list of the release page: order, title, artists, ISRC, duration, explicit flag, credits and
 * a player streaming the owner's own WAV (Range-capable route, so seeking does not download it all).
 */
import { songwriterRoleLabel } from '@tunedrop/shared';
import { formatIsrc, type ReleaseDetailTrack } from '@tunedrop/shared/schemas/delivery';
import { Badge, Card } from '../../../components/ui/card';
import { trackAudioUrl } from '../api/resubmit-release';
import { formatDuration, personName } from '../lib/format';

export function ReleaseTracks({ releaseId, tracks }: { releaseId: string; tracks: ReleaseDetailTrack[] }) {
  return (
    <section aria-labelledby="tracks-title" className="space-y-3">
      <h2 id="tracks-title" className="text-xl font-semibold text-white">
        Tracks
      </h2>
      <Card className="p-0">
        <ol aria-label="Tracks" className="divide-y divide-ink-700">
          {tracks.map((track) => (
            <TrackItem key={track.id} releaseId={releaseId} track={track} />
          ))}
        </ol>
      </Card>
    </section>
  );
}

function TrackItem({ releaseId, track }: { releaseId: string; track: ReleaseDetailTrack }) {
  const artists = [
    track.primaryArtists.join(', '),
    track.featuredArtists.length > 0 ? `feat. ${track.featuredArtists.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <li
      className="space-y-2 px-4 py-3"
      data-testid="track-row"
      aria-label={`${track.position}. ${track.title}`}
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="w-6 shrink-0 text-sm text-zinc-400 tabular-nums">{track.position}</span>
        <div className="min-w-0 flex-1">
          <p className="font-medium break-words text-white">
            {track.title}{' '}
            {track.explicit ? (
              <Badge tone="neutral" className="ml-1 align-middle">
                Explicit
              </Badge>
            ) : null}
          </p>
          <p className="text-sm break-words text-zinc-400">{artists}</p>
        </div>
        <span className="text-sm text-zinc-400 tabular-nums" data-testid="track-duration">
          {formatDuration(track.durationMs)}
        </span>
      </div>
      <div className="pl-9">
        {/* biome-ignore lint/a11y/useMediaCaption: the artist's own unreleased audio has no captions to offer */}
        <audio
          controls
          preload="none"
          src={trackAudioUrl(releaseId, track.id)}
          aria-label={`Play ${track.title}`}
          className="h-10 w-full max-w-md"
          data-testid="track-player"
        />
      </div>
      <dl className="grid gap-x-3 gap-y-1 pl-9 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-zinc-400">ISRC</dt>
        <dd className="font-mono text-zinc-200" data-testid="track-isrc">
          {track.isrc ? formatIsrc(track.isrc) : 'Assigned at approval'}
        </dd>
        {track.songwriters.length > 0 ? (
          <>
            <dt className="text-zinc-400">Songwriters</dt>
            <dd className="text-zinc-300">
              {track.songwriters
                .map((writer) => `${personName(writer)} (${songwriterRoleLabel(writer.role)})`)
                .join(', ')}
            </dd>
          </>
        ) : null}
        {track.producers.length > 0 ? (
          <>
            <dt className="text-zinc-400">Producers</dt>
            <dd className="text-zinc-300">{track.producers.map(personName).join(', ')}</dd>
          </>
        ) : null}
      </dl>
    </li>
  );
}
