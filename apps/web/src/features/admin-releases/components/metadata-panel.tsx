/** Every field of the release (spec 02 §2 admin metadata toggle): label defaults to 'Independent'. */
// Artist links render as links only when valid (issue 43 finding 12): anything else is not clickable.

import { platformName, songwriterRoleLabel } from '@tunedrop/shared';
import {
  ADMIN_RELEASE_MESSAGES,
  type AdminReleaseCard,
  type ArtistCreditView,
} from '@tunedrop/shared/schemas/admin-releases';
import { describeAiDisclosure } from '@tunedrop/shared/schemas/ai-disclosure';
import { isAppleMusicUrl, isSpotifyArtistUrl } from '@tunedrop/shared/schemas/builder';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/format';
import { AvailabilityRows } from '../../release-form';
import { personName } from '../lib/format';

function ArtistLinks({ artists }: { artists: ArtistCreditView[] }) {
  if (artists.length === 0) return <span className="text-zinc-500">—</span>;
  return (
    <ul className="space-y-1">
      {artists.map((artist) => (
        <li key={artist.name} className="flex flex-wrap items-center gap-2">
          <span>{artist.name}</span>
          {artist.spotifyLink && isSpotifyArtistUrl(artist.spotifyLink) ? (
            <a
              href={artist.spotifyLink}
              target="_blank"
              rel="noopener noreferrer"
              className="text-xs text-emerald-300 underline hover:text-emerald-200"
            >
              Spotify<span className="sr-only"> profile of {artist.name}</span>
            </a>
          ) : null}
          {artist.appleMusicLink && isAppleMusicUrl(artist.appleMusicLink) ? (
            <a
              href={artist.appleMusicLink}
              target="_blank"
              rel="noopener noreferrer"
              className="text-xs text-pink-300 underline hover:text-pink-200"
            >
              Apple Music<span className="sr-only"> profile of {artist.name}</span>
            </a>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[10rem_1fr]">
      <dt className="text-zinc-400">{label}</dt>
      <dd className="text-zinc-100">{children}</dd>
    </div>
  );
}

export function MetadataPanel({ release, id }: { release: AdminReleaseCard; id: string }) {
  return (
    <div id={id} className="space-y-5 rounded-lg border border-ink-700 bg-ink-800/40 p-4 text-sm">
      <dl className="space-y-2">
        <Row label="Genre">{release.genre}</Row>
        <Row label="Release Date">{formatDate(release.releaseDate)}</Row>
        <AvailabilityRows releaseDate={release.releaseDate} availability={release.availability} Row={Row} />
        {release.originalReleaseDate ? (
          <Row label="Original Release Date">{formatDate(release.originalReleaseDate)}</Row>
        ) : null}
        <Row label="Label">{release.labelName || ADMIN_RELEASE_MESSAGES.labelDefault}</Row>
        <Row label="Copyright">
          © {release.copyrightYear} {release.copyrightHolder}
        </Row>
        <Row label="Publishing">
          ℗ {release.publishingYear} {release.publishingHolder}
        </Row>
        <Row label="UPC">{release.upc ?? '—'}</Row>
        <Row label="Distribution Stores">
          {release.distributionStores.length > 0
            ? release.distributionStores.map(platformName).join(', ')
            : ADMIN_RELEASE_MESSAGES.noStores}
        </Row>
        <Row label="Primary Artists">
          <ArtistLinks artists={release.primaryArtists} />
        </Row>
        <Row label="Royalty splits">
          <Link
            to={paths.adminReleaseSplits(release.id)}
            className="text-brand-300 underline underline-offset-2 hover:text-brand-200"
          >
            View or change the splits<span className="sr-only"> of {release.title}</span>
          </Link>
        </Row>
        {release.featuredArtists.length > 0 ? (
          <Row label="Featured Artists">
            <ArtistLinks artists={release.featuredArtists} />
          </Row>
        ) : null}
      </dl>
      <div>
        <h4 className="mb-2 font-semibold text-white">Tracks</h4>
        <ol className="space-y-3">
          {release.tracks.map((track) => (
            <li key={track.id} className="rounded-md border border-ink-700 p-3">
              <p className="flex flex-wrap items-center gap-2 font-medium text-white">
                {track.position}. {track.title}
                {track.explicit ? <Badge tone="red">Explicit</Badge> : <Badge>Clean</Badge>}
              </p>
              <dl className="mt-2 space-y-1">
                <Row label="ISRC">{track.isrc ?? '—'}</Row>
                <Row label="Explicit">{track.explicit ? 'Yes' : 'No'}</Row>
                <Row label="Artists">
                  <ArtistLinks artists={track.primaryArtists} />
                </Row>
                {track.featuredArtists.length > 0 ? (
                  <Row label="Featured">
                    <ArtistLinks artists={track.featuredArtists} />
                  </Row>
                ) : null}
                <Row label="Producers">
                  {track.producers.length > 0 ? track.producers.map(personName).join(', ') : '—'}
                </Row>
                <Row label="Songwriters">
                  {track.songwriters.length > 0
                    ? track.songwriters
                        .map((writer) => `${personName(writer)} (${songwriterRoleLabel(writer.role)})`)
                        .join(', ')
                    : '—'}
                </Row>
                <Row label="AI use">
                  {describeAiDisclosure({ usage: track.aiUsage, areas: track.aiAreas ?? [] })}
                </Row>
              </dl>
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
