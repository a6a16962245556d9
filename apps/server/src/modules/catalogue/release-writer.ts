/**
 * The one writer of releases, tracks, songwriters and producers (issue 37, record 261). The builder's
 * submission and the catalogue import create a release through `createRelease`; a track added after
 * submission goes through `insertTracks`; an edit or an approved update replaces a track's credits through
 * `replaceCredits`. Callers check their own rules and files first and pass the transaction.
 */
import type { ReleaseStatus, SongwriterRole } from '@tunedrop/shared';
import type { AiDisclosure } from '@tunedrop/shared/schemas/ai-disclosure';
import type { AudioAnalysis } from '@tunedrop/shared/schemas/audio-checks';
import { type ReleaseSubmission, uniqueArtistsByName } from '@tunedrop/shared/schemas/builder';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { type ArtistCredit, producers, releases, songwriters, tracks } from '../../db/schema';
import { errorCode, errorField } from '../../lib/error-fields';
import { must } from '../../lib/must';
import { availabilityColumns } from './availability';

type Person = { firstName: string; middleName?: string | null | undefined; lastName: string };

/** A track's songwriters and producers, as the builder, an edit and an update give them. */
export type TrackCredits = {
  songwriters: (Person & { role: SongwriterRole })[];
  producers: Person[];
};

/** A stored, checked WAV's technical fields as a track row keeps them. */
export type TrackFile = {
  fileKey: string;
  originalFileName: string;
  fileSizeBytes: number;
  durationMs: number | null;
  sampleRate: number | null;
  bitDepth: number | null;
  channels: number | null;
  /** The audio pre-flight analysis (record 298); none for an imported catalogue's file. */
  audioAnalysis?: AudioAnalysis | null;
};

export type NewTrack = TrackCredits & {
  position: number;
  title: string;
  isrc?: string | null | undefined;
  explicit: boolean;
  file: TrackFile;
  primaryArtists: ArtistCredit[];
  featuredArtists: ArtistCredit[];
  /** How AI was used (record 295): the builder always has it; an imported catalogue track has none. */
  aiDisclosure?: AiDisclosure | null | undefined;
};

export type NewRelease = {
  id: string;
  userId: string;
  artistProfileId: string;
  status: ReleaseStatus;
  /** The builder's submission key (a retry finds its release); null for an import. */
  idempotencyKey?: string | null;
  release: Omit<ReleaseSubmission['release'], 'coverUploadId'>;
  platforms: ReleaseSubmission['platforms'];
  /** The stored cover and its thumbnails (null when a thumbnail was never made). */
  cover: { key: string; thumbSmallKey: string | null; thumbMediumKey: string | null };
  /** In order: the first is position 1. */
  tracks: Omit<NewTrack, 'position'>[];
};

export type CreatedRelease = {
  release: typeof releases.$inferSelect;
  /** The new tracks' ids, in the order given. */
  trackIds: string[];
};

/**
 * A release with its tracks and their credits, in the caller's transaction. The release's artist lists are
 * its tracks' credits, each artist once by name (the builder's rule, `uniqueArtistsByName`).
 */
export async function createRelease(tx: DbOrTx, input: NewRelease): Promise<CreatedRelease> {
  const { release } = input;
  const allPrimary = uniqueArtistsByName(input.tracks.flatMap((track) => track.primaryArtists));
  const allFeatured = uniqueArtistsByName(input.tracks.flatMap((track) => track.featuredArtists));
  const [row] = await tx
    .insert(releases)
    .values({
      id: input.id,
      userId: input.userId,
      artistProfileId: input.artistProfileId,
      title: release.title,
      primaryArtists: allPrimary.map((artist) => artist.name),
      featuredArtists: allFeatured.map((artist) => artist.name),
      primaryArtistsData: allPrimary,
      featuredArtistsData: allFeatured,
      genre: release.genre,
      releaseDate: release.releaseDate,
      originalReleaseDate: release.originalReleaseDate ?? null,
      ...availabilityColumns(release.releaseDate, release.availability),
      labelName: release.labelName ?? null,
      upc: release.upc ?? null,
      copyrightHolder: release.copyrightHolder,
      publishingHolder: release.publishingHolder,
      copyrightYear: release.copyrightYear,
      publishingYear: release.publishingYear,
      distributionStores: input.platforms,
      status: input.status,
      coverArtKey: input.cover.key,
      coverThumbSmallKey: input.cover.thumbSmallKey,
      coverThumbMediumKey: input.cover.thumbMediumKey,
      idempotencyKey: input.idempotencyKey ?? null,
    })
    .returning();
  if (!row) throw new Error('release insert returned nothing');
  const trackIds = await insertTracks(
    tx,
    input.id,
    input.tracks.map((track, index) => ({ ...track, position: index + 1 })),
  );
  return { release: row, trackIds };
}

/** Tracks of a release with their credits; answers their ids in the order given. */
export async function insertTracks(tx: DbOrTx, releaseId: string, list: NewTrack[]): Promise<string[]> {
  if (list.length === 0) return [];
  const rows = await tx
    .insert(tracks)
    .values(
      list.map((track) => ({
        releaseId,
        position: track.position,
        title: track.title,
        isrc: track.isrc ?? null,
        explicit: track.explicit,
        ...track.file,
        primaryArtistsData: track.primaryArtists,
        featuredArtistsData: track.featuredArtists,
        aiUsage: track.aiDisclosure?.usage ?? null,
        aiAreas: track.aiDisclosure?.areas ?? [],
      })),
    )
    .returning({ id: tracks.id, position: tracks.position });
  const idAt = new Map(rows.map((row) => [row.position, row.id]));
  const ids = list.map((track) => must(idAt.get(track.position), `track at position ${track.position}`));
  await insertCredits(
    tx,
    list.map((track, index) => ({ trackId: must(ids[index], 'track id'), credits: track })),
  );
  return ids;
}

/** A track's credits replaced as a whole (an edit, an approved update). */
export async function replaceCredits(tx: DbOrTx, trackId: string, credits: TrackCredits): Promise<void> {
  await tx.delete(songwriters).where(eq(songwriters.trackId, trackId));
  await tx.delete(producers).where(eq(producers.trackId, trackId));
  await insertCredits(tx, [{ trackId, credits }]);
}

async function insertCredits(tx: DbOrTx, list: { trackId: string; credits: TrackCredits }[]): Promise<void> {
  const writerRows = list.flatMap(({ trackId, credits }) =>
    credits.songwriters.map((writer) => ({
      trackId,
      firstName: writer.firstName,
      middleName: writer.middleName ?? null,
      lastName: writer.lastName,
      role: writer.role,
    })),
  );
  if (writerRows.length > 0) await tx.insert(songwriters).values(writerRows);
  const producerRows = list.flatMap(({ trackId, credits }) =>
    credits.producers.map((producer) => ({
      trackId,
      firstName: producer.firstName,
      middleName: producer.middleName ?? null,
      lastName: producer.lastName,
    })),
  );
  if (producerRows.length > 0) await tx.insert(producers).values(producerRows);
}

/** The constraint a unique violation names (either driver), else null: how a writer's caller reads a clash. */
export function uniqueViolation(error: unknown): string | null {
  for (let current = error; current && typeof current === 'object'; current = errorField(current, 'cause')) {
    if (errorCode(current) === '23505') {
      const constraint = errorField(current, 'constraint');
      if (typeof constraint === 'string') return constraint;
      const message = errorField(current, 'message');
      return /"([^"]+)"/.exec(typeof message === 'string' ? message : '')?.[1] ?? 'unknown';
    }
  }
  return null;
}
