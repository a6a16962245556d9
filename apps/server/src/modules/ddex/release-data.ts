/**
 * The release as the ERN builder takes it, from the catalogue's read model (`releaseForDelivery`): the ZIP
 * export and store deliveries differ only in the stores that get deals and in where each file is.
 */
import type { ArtistCredit } from '../../db/schema';
import type { ReleaseForDelivery } from '../catalogue';
import type { ErnRelease } from './ern';

/** The release read for the ZIP export and deliveries (the catalogue's read model). */
export type ReleaseData = ReleaseForDelivery;

const sameName = (a: string, b: string) =>
  a.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase() ===
  b.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * A credit of the artist profile's name gets the profile's Spotify and Apple ids as links where the
 * builder left them out (record 321): the ERN carries them as proprietary PartyIds. A link typed on the
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
    // Release time and territories (record 199's columns) in every deal (record 319).
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
    artistProfile: data.artistProfile,
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
      aiDisclosure: track.aiUsage ? { usage: track.aiUsage, areas: track.aiAreas } : null,
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
