/**
 * The release builder's rules: the saved draft, upload lookups, artist search, and the submission
 * that re-checks everything and creates the release with its tracks and credits in one transaction.
 */

import { createHash } from 'node:crypto';
import { hasProFeatures, LIMITS } from '@tunedrop/shared';
import { AI_MESSAGES } from '@tunedrop/shared/schemas/ai-disclosure';
import {
  BUILDER_MESSAGES,
  type BuilderDraft,
  builderDraftSchema,
  type DraftAnswer,
  draftUploadIds,
  parseSpotifyArtistUrl,
  planRuleErrors,
  type ReleaseSubmission,
  type SpotifyArtistResult,
  type SubmittedRelease,
  type UploadInfo,
  withoutInvalidDraftLinks,
} from '@tunedrop/shared/schemas/builder';
import { isTeamMemberOf } from '@tunedrop/shared/schemas/member-locks';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { releaseDrafts, releases, tracks, uploads } from '../../db/schema';
import type { Deps } from '../../deps';
import { createSpotifyClient, type SpotifyClient } from '../../infra/spotify/spotify';
import { assertNotBanned } from '../../lib/access';
import type { Viewer } from '../../lib/context';
import { AppError, conflict, validationError } from '../../lib/errors';
import { must } from '../../lib/must';
import { firstRow } from '../../lib/sql';
import { profileForNewRelease } from '../artist-profiles';
import { createRelease, uniqueViolation } from '../catalogue';
import { optInAtSubmission } from '../content-id';
import { notifyReleaseSubmitted } from '../staff-notifications';
import { emitWebhookEvent } from '../webhook-outbox';
import {
  copyAudioIntoStorage,
  FileClaimedElsewhere,
  isUsableUpload,
  removeStagedAudio,
  trackFileFields,
} from './files';
import { finalizeUpload, findUploads, receivedBytes, toUploadInfo, type UploadRow } from './uploads';

type ServiceDeps = Pick<Deps, 'db' | 'config' | 'storage' | 'logger'>;

// ---------------------------------------------------------------- uploads

/** What the wizard needs to know about its files; an upload that is gone answers 'missing'. */
export async function uploadInfos(
  deps: ServiceDeps,
  userId: string,
  ids: string[],
): Promise<Record<string, UploadInfo>> {
  const rows = await findUploads(deps.db, userId, ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const result: Record<string, UploadInfo> = {};
  for (const id of ids) {
    let row = byId.get(id);
    // An upload whose last bytes arrived but whose check never ran (a crash in between) is checked now.
    if (row?.status === 'uploading') row = (await finalizeUpload(deps, id)) ?? row;
    result[id] = row
      ? toUploadInfo(row, row.status === 'uploading' ? await receivedBytes(deps.config, id) : undefined)
      : {
          id,
          kind: 'audio',
          status: 'missing',
          originalName: '',
          sizeBytes: 0,
          receivedBytes: 0,
          error: null,
          details: null,
        };
  }
  return result;
}

// ---------------------------------------------------------------- drafts

export async function loadDraft(deps: ServiceDeps, userId: string): Promise<DraftAnswer> {
  const limits = { maxWavBytes: deps.config.UPLOAD_MAX_WAV_BYTES, coverMaxBytes: LIMITS.coverArtMaxBytes };
  const [row] = await deps.db.select().from(releaseDrafts).where(eq(releaseDrafts.userId, userId));
  if (!row) return { draft: null, uploads: {}, limits };
  const { uploadIds: _ignored, ...data } = row.data;
  const parsed = builderDraftSchema.safeParse(withoutInvalidDraftLinks(data));
  if (!parsed.success) return { draft: null, uploads: {}, limits };
  return {
    draft: parsed.data,
    uploads: await uploadInfos(deps, userId, draftUploadIds(parsed.data)),
    limits,
  };
}

/**
 * Saves the wizard's state; the upload ids it names are stored beside it so the clean-up spares
 * them. A draft whose key already made a release (a save that raced the submission) is not saved:
 * answers false.
 */
export async function saveDraft(db: DbOrTx, userId: string, draft: BuilderDraft): Promise<boolean> {
  const data = { ...draft, uploadIds: draftUploadIds(draft) };
  const saved = await firstRow<{ userId: string }>(
    db,
    sql`
    insert into ${releaseDrafts} (user_id, data, updated_at)
    select ${userId}, ${JSON.stringify(data)}::jsonb, now()
    where not exists (
      select 1 from ${releases} where ${releases.userId} = ${userId} and ${releases.idempotencyKey} = ${draft.idempotencyKey}
    )
    on conflict (user_id) do update set data = excluded.data, updated_at = excluded.updated_at
    returning user_id`,
  );
  return saved !== undefined;
}

export async function deleteDraft(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(releaseDrafts).where(eq(releaseDrafts.userId, userId));
}

// ---------------------------------------------------------------- artist search

const spotifyClients = new WeakMap<Config, SpotifyClient>();

const notConfigured = () =>
  new AppError(
    'spotify_not_configured',
    'Artist search is not configured on this server. You can still type the artist name and paste their Spotify link.',
    503,
  );

function spotifyFor(config: Config): SpotifyClient {
  if (!config.SPOTIFY_CLIENT_ID || !config.SPOTIFY_CLIENT_SECRET) throw notConfigured();
  let client = spotifyClients.get(config);
  if (!client) {
    client = createSpotifyClient({
      clientId: config.SPOTIFY_CLIENT_ID,
      clientSecret: config.SPOTIFY_CLIENT_SECRET,
      apiBase: config.SPOTIFY_API_BASE,
      accountsBase: config.SPOTIFY_ACCOUNTS_BASE,
    });
    spotifyClients.set(config, client);
  }
  return client;
}

export async function searchSpotifyArtists(config: Config, query: string): Promise<SpotifyArtistResult[]> {
  return spotifyFor(config).searchArtists(query, 10);
}

export async function fetchSpotifyArtist(config: Config, artistUrl: string): Promise<SpotifyArtistResult> {
  const client = spotifyFor(config);
  const id = parseSpotifyArtistUrl(artistUrl);
  if (!id)
    throw validationError(BUILDER_MESSAGES.spotifyLinkInvalid, {
      artistUrl: BUILDER_MESSAGES.spotifyLinkInvalid,
    });
  const artist = await client.getArtist(id);
  if (!artist) throw new AppError('not_found', 'No Spotify artist has this link.', 404);
  return artist;
}

// ---------------------------------------------------------------- submission

/**
 * The release id of a submission, derived from the user and the idempotency key: a retry after a
 * failure finds the audio it already moved under the same keys instead of moving it again.
 */
export function releaseIdFor(userId: string, idempotencyKey: string): string {
  const hex = createHash('sha256').update(`release:${userId}:${idempotencyKey}`).digest('hex');
  // RFC 9562 version 8 (custom) with the RFC variant bits.
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function toSubmitted(row: typeof releases.$inferSelect): SubmittedRelease {
  return { id: row.id, title: row.title, status: row.status, createdAt: row.createdAt.toISOString() };
}

async function findByIdempotencyKey(db: DbOrTx, userId: string, key: string) {
  const [row] = await db
    .select()
    .from(releases)
    .where(and(eq(releases.userId, userId), eq(releases.idempotencyKey, key)));
  return row;
}

/** Rows the submission refers to must be this user's, of the right kind and checked (§ Submission). */
function checkFiles(
  submission: ReleaseSubmission,
  rows: UploadRow[],
): { cover: UploadRow; audio: UploadRow[] } {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const fields: Record<string, string> = {};
  const cover = byId.get(submission.release.coverUploadId);
  if (!isUsableUpload(cover, 'cover')) {
    fields['release.coverUploadId'] = BUILDER_MESSAGES.coverArtNotUsable;
  }
  const audio = submission.tracks.map((track, index) => {
    const row = byId.get(track.audioUploadId);
    if (!isUsableUpload(row, 'audio')) {
      fields[`tracks.${index}.audioUploadId`] = BUILDER_MESSAGES.audioNotUsable;
    }
    return row;
  });
  const [firstError] = Object.values(fields);
  if (firstError !== undefined) throw validationError(firstError, fields);
  return {
    cover: must(cover, 'cover upload'),
    audio: audio.map((row, index) => must(row, `upload of track ${index + 1}`)),
  };
}

export type SubmitResult = { release: SubmittedRelease; isRepeat: boolean };

export async function submitRelease(
  deps: ServiceDeps,
  viewer: Viewer,
  submission: ReleaseSubmission,
): Promise<SubmitResult> {
  const { db } = deps;
  const userId = viewer.account.id;
  assertNotBanned(viewer);

  const earlier = await findByIdempotencyKey(db, userId, submission.idempotencyKey);
  if (earlier) return { release: toSubmitted(earlier), isRepeat: true };

  // The profile it goes under (record 201): the account's, and beyond the first only on a running Pro plan.
  const artistProfile = await profileForNewRelease(db, viewer, submission.artistProfileId);
  const isPro = hasProFeatures(viewer.profile.plan, viewer.roles);
  const planErrors = planRuleErrors(submission, {
    isPro,
    artistName: artistProfile.name,
    isTeamMember: isTeamMemberOf(viewer),
  });
  // Every track's AI use answered (record 295): the route's schema asks it; a direct caller is held to it too.
  submission.tracks.forEach((track, index) => {
    if (!track.aiDisclosure) planErrors[`tracks.${index}.aiDisclosure`] = AI_MESSAGES.usageRequired;
  });
  const [firstPlanError] = Object.values(planErrors);
  if (firstPlanError !== undefined) throw validationError(firstPlanError, planErrors);
  if (submission.tracks.length > LIMITS.tracksMax) throw validationError(BUILDER_MESSAGES.tooManyTracks);

  const isrcs = submission.tracks.map((track) => track.isrc).filter((isrc): isrc is string => Boolean(isrc));
  if (isrcs.length > 0) {
    const used = new Set(
      (await db.select({ isrc: tracks.isrc }).from(tracks).where(inArray(tracks.isrc, isrcs))).map(
        (row) => row.isrc,
      ),
    );
    const fields: Record<string, string> = {};
    submission.tracks.forEach((track, index) => {
      if (track.isrc && used.has(track.isrc)) fields[`tracks.${index}.isrc`] = BUILDER_MESSAGES.isrcTaken;
    });
    if (Object.keys(fields).length > 0)
      throw new AppError('isrc_taken', BUILDER_MESSAGES.isrcTaken, 409, fields);
  }

  const upc = submission.release.upc;
  if (upc) {
    const [other] = await db
      .select({ id: releases.id })
      .from(releases)
      .where(
        and(
          eq(releases.upc, upc),
          ne(releases.status, 'deleted'),
          // A retry of this very submission finds its own release: that is the idempotent repeat, not a clash.
          ne(releases.id, releaseIdFor(userId, submission.idempotencyKey)),
        ),
      )
      .limit(1);
    if (other) {
      throw new AppError('upc_taken', BUILDER_MESSAGES.upcTaken, 409, {
        'release.upc': BUILDER_MESSAGES.upcTaken,
      });
    }
  }

  const ids = [submission.release.coverUploadId, ...submission.tracks.map((track) => track.audioUploadId)];
  let files: ReturnType<typeof checkFiles>;
  try {
    files = checkFiles(submission, await findUploads(db, userId, ids));
  } catch (error) {
    // A concurrent attempt with the same key (a double click) may have committed and consumed the files
    // between the check above and this read: answer its release rather than "not usable".
    const finished = await findByIdempotencyKey(db, userId, submission.idempotencyKey);
    if (finished) return { release: toSubmitted(finished), isRepeat: true };
    throw error;
  }
  const releaseId = releaseIdFor(userId, submission.idempotencyKey);
  let audioKeys: Map<string, string>;
  try {
    audioKeys = await copyAudioIntoStorage(deps, userId, releaseId, files.audio);
  } catch (error) {
    // A concurrent attempt with the same key may have finished (and removed the staged files) meanwhile.
    const finished = await findByIdempotencyKey(db, userId, submission.idempotencyKey);
    if (finished) return { release: toSubmitted(finished), isRepeat: true };
    if (error instanceof FileClaimedElsewhere) {
      throw new AppError(
        'submission_in_progress',
        'One of these files is being submitted in another release. Please wait a moment and try again.',
        409,
      );
    }
    throw error;
  }

  const { coverUploadId: _cover, ...details } = submission.release;
  try {
    const created = await db.transaction(async (tx) => {
      const { release: row, trackIds } = await createRelease(tx, {
        id: releaseId,
        userId,
        artistProfileId: artistProfile.id,
        status: 'pending',
        idempotencyKey: submission.idempotencyKey,
        release: details,
        platforms: submission.platforms,
        cover: {
          key: must(files.cover.storageKey, 'stored cover'),
          thumbSmallKey: files.cover.thumbSmallKey,
          thumbMediumKey: files.cover.thumbMediumKey,
        },
        tracks: submission.tracks.map((track, index) => {
          const file = must(files.audio[index], `upload of track ${index + 1}`);
          return {
            ...track,
            file: trackFileFields(file, must(audioKeys.get(file.id), 'audio key')),
          };
        }),
      });

      const consumed = await tx
        .update(uploads)
        .set({ status: 'consumed', releaseId, updatedAt: new Date() })
        .where(and(eq(uploads.userId, userId), inArray(uploads.id, ids), eq(uploads.status, 'checked')))
        .returning({ id: uploads.id });
      if (consumed.length !== ids.length) {
        throw conflict(
          'One of the files was used by another submission in the meantime. Please upload it again.',
        );
      }
      await tx.delete(releaseDrafts).where(eq(releaseDrafts.userId, userId));

      // Content ID chosen in the builder (Pro, checked by planRuleErrors above): opted in with the release.
      await optInAtSubmission(
        tx,
        { id: userId, email: viewer.user.email },
        releaseId,
        submission.tracks.flatMap((track, index) =>
          track.contentIdAnswers
            ? [
                {
                  trackId: must(trackIds[index], 'track id'),
                  title: track.title,
                  answers: track.contentIdAnswers,
                },
              ]
            : [],
        ),
      );
      await notifyReleaseSubmitted(tx, releaseId);
      await emitWebhookEvent(tx, userId, 'release.submitted', { releaseId });
      return row;
    });
    deps.logger.info({ releaseId, userId, tracks: submission.tracks.length }, 'release submitted');
    await removeStagedAudio(deps, files.audio);
    return { release: toSubmitted(created), isRepeat: false };
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint === 'releases_user_idempotency_key' || constraint === 'releases_pkey') {
      const existing = await findByIdempotencyKey(db, userId, submission.idempotencyKey);
      if (existing) return { release: toSubmitted(existing), isRepeat: true };
    }
    if (constraint === 'tracks_isrc_unique')
      throw new AppError('isrc_taken', BUILDER_MESSAGES.isrcTaken, 409);
    throw error;
  }
}
