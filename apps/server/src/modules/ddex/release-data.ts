/**
 * A release as it leaves Tunedrop, read once for the review's ZIP export and for store deliveries: the
 * release row, its tracks with songwriters and producers, and safe file names; and the same release in
 * the shape the ERN builder takes.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  type ArtistCredit,
  artistProfiles,
  contentIdTracks,
  producers,
  profiles,
  releases,
  songwriters,
  tracks,
} from '../../db/schema';
import { releaseNotFound } from '../releases/service';
import type { ErnRelease } from './ern';

export type ReleaseData = {
  release: typeof releases.$inferSelect;
  uploader: { email: string; artistName: string };
  tracks: (typeof tracks.$inferSelect & {
    songwriters: { firstName: string; middleName: string | null; lastName: string; role: string }[];
    producers: { firstName: string; middleName: string | null; lastName: string }[];
    entryName: string;
    /** The track's Content ID choice (record 185); null when never opted in. */
    contentId: { isOptedIn: boolean; optedOutAt: Date | null } | null;
  })[];
  coverEntryName: string | null;
  /** The artist profile it is released under (record 201), with the Spotify and Apple ids kept there. */
  artistProfile: { name: string; spotifyArtistId: string | null; appleArtistId: string | null } | null;
};

/**
 * A ZIP entry name from a stored file name: one line, never a path, nothing an unzip tool or a file
 * system refuses or misreads. Control and line-separator characters, double quotes and the characters
 * Windows forbids become `_` (names stored before issue 22 may hold CR/LF); apostrophes stay ("Don't").
 */
export function safeEntryName(raw: string, fallback = 'track.wav'): string {
  const name = raw
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029"\\/:*?<>|]/g, '_')
    .replace(/^[\s.]+/, '_')
    .trim();
  return /[^_\s.]/.test(name) ? name : fallback;
}

/** Names inside the ZIP: the original file name made safe, and unique when two tracks share one. */
export function uniqueEntryNames(names: string[], reserved: string[] = []): string[] {
  const taken = new Set(reserved.map((name) => name.toLowerCase()));
  return names.map((raw) => {
    const base = safeEntryName(raw);
    let candidate = base;
    for (let index = 2; taken.has(candidate.toLowerCase()); index += 1) {
      const dot = base.lastIndexOf('.');
      candidate = dot > 0 ? `${base.slice(0, dot)} (${index})${base.slice(dot)}` : `${base} (${index})`;
    }
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

export async function loadReleaseData(db: DbOrTx, releaseId: string): Promise<ReleaseData> {
  const [release] = await db.select().from(releases).where(eq(releases.id, releaseId)).limit(1);
  if (!release) throw releaseNotFound();
  const [uploader] = await db
    .select({ email: profiles.email, artistName: profiles.artistName })
    .from(profiles)
    .where(eq(profiles.id, release.userId))
    .limit(1);
  const [artistProfile] = await db
    .select({
      name: artistProfiles.name,
      spotifyArtistId: artistProfiles.spotifyArtistId,
      appleArtistId: artistProfiles.appleArtistId,
    })
    .from(artistProfiles)
    .where(eq(artistProfiles.id, release.artistProfileId))
    .limit(1);
  const trackRows = await db
    .select()
    .from(tracks)
    .where(eq(tracks.releaseId, releaseId))
    .orderBy(asc(tracks.position));
  const trackIds = trackRows.map((track) => track.id);
  const writerRows = trackIds.length
    ? await db.select().from(songwriters).where(inArray(songwriters.trackId, trackIds))
    : [];
  const producerRows = trackIds.length
    ? await db.select().from(producers).where(inArray(producers.trackId, trackIds))
    : [];
  const contentIdRows = trackIds.length
    ? await db
        .select({
          trackId: contentIdTracks.trackId,
          isOptedIn: contentIdTracks.isOptedIn,
          optedOutAt: contentIdTracks.optedOutAt,
        })
        .from(contentIdTracks)
        .where(inArray(contentIdTracks.trackId, trackIds))
    : [];
  const contentIdByTrack = new Map(
    contentIdRows.map(({ trackId, isOptedIn, optedOutAt }) => [trackId, { isOptedIn, optedOutAt }]),
  );
  const coverEntryName = release.coverArtKey
    ? `cover.${release.coverArtKey.split('.').pop()?.toLowerCase() === 'png' ? 'png' : 'jpg'}`
    : null;
  const entryNames = uniqueEntryNames(
    trackRows.map((track) => track.originalFileName),
    ['metadata.json', 'ern.xml', ...(coverEntryName ? [coverEntryName] : [])],
  );
  return {
    release,
    uploader: uploader ?? { email: '', artistName: '' },
    coverEntryName,
    artistProfile: artistProfile ?? null,
    tracks: trackRows.map((track, index) => ({
      ...track,
      entryName: entryNames[index] ?? track.originalFileName,
      contentId: contentIdByTrack.get(track.id) ?? null,
      songwriters: writerRows
        .filter((writer) => writer.trackId === track.id)
        .map(({ firstName, middleName, lastName, role }) => ({ firstName, middleName, lastName, role })),
      producers: producerRows
        .filter((producer) => producer.trackId === track.id)
        .map(({ firstName, middleName, lastName }) => ({ firstName, middleName, lastName })),
    })),
  };
}

const sameName = (a: string, b: string) =>
  a.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase() ===
  b.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * A credit of the artist profile's name gets the profile's Spotify and Apple ids as links where the
 * builder left them out (record 198): the ERN carries them as proprietary PartyIds. A link typed on the
 * release wins.
 */
export function withProfileLinks(
  credits: ArtistCredit[],
  profile: ReleaseData['artistProfile'],
): ArtistCredit[] {
  if (!profile || (!profile.spotifyArtistId && !profile.appleArtistId)) return credits;
  return credits.map((credit) =>
    sameName(credit.name, profile.name)
      ? {
          ...credit,
          ...(!credit.spotifyLink && profile.spotifyArtistId
            ? { spotifyLink: `https://open.spotify.com/artist/${profile.spotifyArtistId}` }
            : {}),
          ...(!credit.appleMusicLink && profile.appleArtistId
            ? { appleMusicLink: `https://music.apple.com/artist/${profile.appleArtistId}` }
            : {}),
        }
      : credit,
  );
}

type ErnFile = { fileName: string; fileSizeBytes?: number; md5?: string | null };

/**
 * The release as the ERN builder takes it, from the export data: the ZIP export and store deliveries
 * differ only in the stores that get deals and in where each file is (and its hash, once sent).
 */
export function ernReleaseFrom(
  data: ReleaseData,
  where: {
    distributionStores: ErnRelease['distributionStores'];
    cover: ErnRelease['cover'];
    trackFile: (track: ReleaseData['tracks'][number], index: number) => ErnFile;
    /** YouTube's feed (record 192): TrackReleases with Art Track and Content ID deals. */
    isYoutube?: boolean;
  },
): ErnRelease {
  const { release } = data;
  return {
    id: release.id,
    title: release.title,
    upc: release.upc,
    labelName: release.labelName,
    genre: release.genre,
    releaseDate: release.releaseDate,
    originalReleaseDate: release.originalReleaseDate,
    copyrightHolder: release.copyrightHolder,
    copyrightYear: release.copyrightYear,
    publishingHolder: release.publishingHolder,
    publishingYear: release.publishingYear,
    distributionStores: where.distributionStores,
    // Release time and territories (record 199's columns) in every deal (record 198).
    territories:
      release.territoryMode === 'worldwide' || release.territories.length === 0
        ? { mode: 'worldwide' }
        : { mode: release.territoryMode, codes: release.territories },
    releaseStart:
      release.releaseTimeMode === 'worldwide_moment' && release.releaseAt
        ? { mode: 'worldwide_moment', at: release.releaseAt }
        : { mode: 'local_midnight' },
    primaryArtists: withProfileLinks(
      release.primaryArtistsData.length > 0
        ? release.primaryArtistsData
        : release.primaryArtists.map((name) => ({ name })),
      data.artistProfile,
    ),
    featuredArtists:
      release.featuredArtistsData.length > 0
        ? release.featuredArtistsData
        : release.featuredArtists.map((name) => ({ name })),
    cover: where.cover,
    tracks: data.tracks.map((track, index) => ({
      id: track.id,
      position: track.position,
      title: track.title,
      isrc: track.isrc,
      explicit: track.explicit,
      durationMs: track.durationMs,
      fileSizeBytes: track.fileSizeBytes,
      sampleRate: track.sampleRate,
      bitDepth: track.bitDepth,
      channels: track.channels,
      primaryArtists: withProfileLinks(track.primaryArtistsData, data.artistProfile),
      featuredArtists: track.featuredArtistsData,
      songwriters: track.songwriters,
      producers: track.producers,
      ...(where.isYoutube && track.contentId
        ? {
            contentId: {
              isOptedIn: track.contentId.isOptedIn,
              optedOutOn: track.contentId.optedOutAt?.toISOString().slice(0, 10) ?? null,
            },
          }
        : {}),
      ...where.trackFile(track, index),
    })),
    ...(where.isYoutube ? { dealProfile: 'youtube' as const } : {}),
  };
}
