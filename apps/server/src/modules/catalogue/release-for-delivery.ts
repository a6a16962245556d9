/**
 * The read model of a release as it leaves Tunedrop, read once for the review's ZIP export and for store
 * deliveries (ddex and delivery read it through here): the release row, its tracks with songwriters,
 * producers and Content ID choice, its artist profile, and safe file names.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  artistProfiles,
  contentIdTracks,
  producers,
  profiles,
  releases,
  songwriters,
  tracks,
} from '../../db/schema';
import { releaseNotFound } from './release-refs';

export type ReleaseForDelivery = {
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
  artistProfile: {
    name: string;
    spotifyArtistId: string | null;
    appleArtistId: string | null;
    deezerArtistId: string | null;
    amazonArtistId: string | null;
    youtubeChannelId: string | null;
    spotifyArtistKey: string | null;
  } | null;
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

export async function releaseForDelivery(db: DbOrTx, releaseId: string): Promise<ReleaseForDelivery> {
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
      deezerArtistId: artistProfiles.deezerArtistId,
      amazonArtistId: artistProfiles.amazonArtistId,
      youtubeChannelId: artistProfiles.youtubeChannelId,
      spotifyArtistKey: artistProfiles.spotifyArtistKey,
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
