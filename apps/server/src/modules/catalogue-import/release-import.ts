/**
 * One release of a catalogue import (record 200): checked with the builder's rules, its files by content
 * and its codes against the catalogue, then refused whole or stored whole (files are copied into storage
 * first and removed again unless the release's one transaction commits). Its id is fixed by the import and
 * the source, so a job run again after a crash finds a release it already stored (record 232).
 */
import { createHash } from 'node:crypto';
import type { ReleaseStatus } from '@tunedrop/shared';
import { type ReleaseSubmission, sanitizeFileName } from '@tunedrop/shared/schemas/builder';
import type { CatalogueImportReleaseReport } from '@tunedrop/shared/schemas/catalogue-import';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { releases, tracks } from '../../db/schema';
import type { Storage } from '../../infra/storage/storage';
import type { Logger } from '../../lib/logger';
import { must } from '../../lib/must';
import { createRelease, THUMB_SIZES, uniqueViolation } from '../catalogue';
import { addEvent, queueNewDeliveries } from '../delivery';
import {
  type CheckedAudio,
  type CheckedCover,
  checkAudioFile,
  checkCoverFile,
  ImportFileError,
} from './files';
import { type Owner, profileFor } from './owner';
import { ruleReasons } from './release-rules';
import type { SourceRelease } from './source';

export type ImportDeps = { db: Db; storage: Storage; config: Config; logger: Logger };

/** The release id an import gives a source: the same on every run of that import (a UUID-shaped hash). */
export function importedReleaseId(importId: string, source: string): string {
  const hex = createHash('sha256').update(`catalogue-import:${importId}:${source}`).digest('hex');
  const variant = ((Number.parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

async function codeCollisions(db: Db, submission: ReleaseSubmission): Promise<string[]> {
  const reasons: string[] = [];
  const upc = submission.release.upc;
  if (upc) {
    const [other] = await db
      .select({ id: releases.id, title: releases.title })
      .from(releases)
      .where(and(eq(releases.upc, upc), ne(releases.status, 'deleted')))
      .limit(1);
    if (other) reasons.push(`UPC ${upc} is already used by the release "${other.title}" (${other.id}).`);
  }
  const isrcs = submission.tracks.flatMap((track) => (track.isrc ? [track.isrc] : []));
  if (isrcs.length > 0) {
    const used = await db
      .select({ isrc: tracks.isrc, title: tracks.title, releaseTitle: releases.title })
      .from(tracks)
      .innerJoin(releases, eq(releases.id, tracks.releaseId))
      .where(inArray(tracks.isrc, isrcs));
    for (const row of used)
      reasons.push(`ISRC ${row.isrc} is already used by the track "${row.title}" of "${row.releaseTitle}".`);
  }
  return reasons;
}

function statusFor(
  source: SourceRelease,
  submission: ReleaseSubmission,
  skipReview: boolean,
): { status: ReleaseStatus; note: string | null } {
  if (source.storeState === 'taken_down')
    return {
      status: 'taken_down',
      note: 'Taken down at its source: kept as taken down, nothing is delivered.',
    };
  if (!skipReview) return { status: 'pending', note: 'Waiting for review in Pending.' };
  const missing = [
    ...(submission.release.upc ? [] : ['UPC']),
    ...(submission.tracks.some((track) => !track.isrc) ? ['ISRC'] : []),
  ];
  if (missing.length > 0)
    return {
      status: 'pending',
      note: `Left in Pending although review was skipped: the source has no ${missing.join(' or ')}, and an import never gets new codes without review.`,
    };
  return { status: 'approved', note: null };
}

export type ReleaseContext = {
  root: string;
  base: string;
  owner: Owner;
  skipReview: boolean;
  now: Date;
  /** The artist profile chosen for the folder (its name), or null to choose by the release's artist. */
  artistProfile: string | null;
  releaseId: string;
};

export async function importOne(
  deps: ImportDeps,
  source: SourceRelease,
  context: ReleaseContext,
): Promise<CatalogueImportReleaseReport> {
  const report: CatalogueImportReleaseReport = {
    source: source.source,
    title: source.title || null,
    upc: source.upc,
    outcome: 'refused',
    status: null,
    releaseId: null,
    storeState: source.storeState,
    tracks: source.tracks.map((track) => ({ title: track.title, isrc: track.isrc })),
    reasons: [...source.problems],
    notes: [...source.notes],
  };
  const { owner, releaseId } = context;
  // A run of this import stored it already (the job was retried after the commit): report it as it is.
  const [stored] = await deps.db
    .select({ status: releases.status })
    .from(releases)
    .where(eq(releases.id, releaseId));
  if (stored) return { ...report, outcome: 'imported', status: stored.status, releaseId };
  if (owner.isBanned)
    report.reasons.push(`The account ${owner.email} is banned: nothing is imported for it.`);
  const chosen = profileFor(owner, context.artistProfile, source.displayArtists);
  if ('reason' in chosen) report.reasons.push(chosen.reason);
  else if (chosen.note) report.notes.push(chosen.note);
  const artistProfile = 'profile' in chosen ? chosen.profile : null;
  const rules = ruleReasons(
    source,
    { isPro: owner.isPro, artistName: artistProfile?.name ?? owner.profiles[0]?.name ?? '' },
    context.now,
  );
  report.reasons.push(...rules.reasons);

  // Files: checked by content even when a rule already refused the release, so the report is complete.
  let cover: CheckedCover | null = null;
  const audio: (CheckedAudio | null)[] = [];
  if (source.cover) {
    try {
      cover = await checkCoverFile(context.root, context.base, source.cover);
    } catch (error) {
      if (!(error instanceof ImportFileError)) throw error;
      report.reasons.push(`Cover: ${error.message}`);
    }
  }
  for (const [index, track] of source.tracks.entries()) {
    if (!track.audio) {
      audio.push(null);
      continue;
    }
    try {
      audio.push(
        await checkAudioFile(context.root, context.base, track.audio, deps.config.UPLOAD_MAX_WAV_BYTES),
      );
    } catch (error) {
      if (!(error instanceof ImportFileError)) throw error;
      report.reasons.push(`Track ${index + 1} "${track.title}": ${error.message}`);
      audio.push(null);
    }
  }
  const submission = rules.submission;
  if (submission) report.reasons.push(...(await codeCollisions(deps.db, submission)));
  if (
    report.reasons.length > 0 ||
    !submission ||
    !artistProfile ||
    !cover ||
    audio.some((file) => file === null)
  ) {
    if (report.reasons.length === 0) report.reasons.push('A file could not be checked.');
    return report;
  }

  const { status, note } = statusFor(source, submission, context.skipReview);
  const prefix = `${owner.id}/${releaseId}/`;
  const written: string[] = [];
  try {
    const coverName = sanitizeFileName(cover.name) || 'cover';
    const stem = coverName.replace(/\.[^.]*$/, '');
    const coverKey = `${prefix}cover-${coverName}`;
    const thumbSmallKey = `${prefix}cover-${stem}-thumb-${THUMB_SIZES.small}.jpg`;
    const thumbMediumKey = `${prefix}cover-${stem}-thumb-${THUMB_SIZES.medium}.jpg`;
    written.push(coverKey);
    await deps.storage.copyFile(
      coverKey,
      cover.path,
      cover.cover.format === 'png' ? 'image/png' : 'image/jpeg',
    );
    written.push(thumbSmallKey);
    await deps.storage.putBuffer(thumbSmallKey, cover.cover.thumbSmall, 'image/jpeg');
    written.push(thumbMediumKey);
    await deps.storage.putBuffer(thumbMediumKey, cover.cover.thumbMedium, 'image/jpeg');
    const audioKeys: string[] = [];
    for (const [index, file] of audio.entries()) {
      if (!file) throw new Error('unchecked audio');
      // Streamed copy (never read whole): the local store copies, S3 uploads in parts.
      const key = `${prefix}${String(index + 1).padStart(2, '0')}-${sanitizeFileName(file.name) || 'audio.wav'}`;
      written.push(key);
      await deps.storage.copyFile(key, file.path, 'audio/wav');
      audioKeys.push(key);
    }

    const { coverUploadId: _cover, ...details } = submission.release;
    const queued = await deps.db.transaction(async (tx) => {
      await createRelease(tx, {
        id: releaseId,
        userId: owner.id,
        artistProfileId: artistProfile.id,
        status,
        release: details,
        platforms: submission.platforms,
        cover: { key: coverKey, thumbSmallKey, thumbMediumKey },
        tracks: submission.tracks.map((track, index) => {
          const file = audio[index];
          if (!file) throw new Error('unchecked audio');
          return {
            ...track,
            file: {
              fileKey: must(audioKeys[index], 'audio key'),
              originalFileName: file.name,
              fileSizeBytes: file.sizeBytes,
              durationMs: file.wav.durationMs,
              sampleRate: file.wav.sampleRate,
              bitDepth: file.wav.bitDepth,
              channels: file.wav.channels,
            },
          };
        }),
      });
      const origin = `Imported from the catalogue (${source.source}).`;
      if (status === 'approved') {
        // Review skipped: approved with the source's codes, and queued like an approval (no codes assigned).
        await addEvent(tx, releaseId, 'approved', `${origin} Review skipped; codes kept.`);
        return queueNewDeliveries(tx, releaseId);
      }
      await addEvent(tx, releaseId, status, note ? `${origin} ${note}` : origin);
      return 0;
    });
    written.length = 0;
    report.outcome = 'imported';
    report.status = status;
    report.releaseId = releaseId;
    if (note) report.notes.push(note);
    if (status === 'approved')
      report.notes.push(
        queued > 0
          ? `Approved with its codes; queued for delivery to ${queued} target${queued === 1 ? '' : 's'}.`
          : 'Approved with its codes; no enabled delivery target serves its stores yet.',
      );
    return report;
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint === 'tracks_isrc_unique') {
      report.reasons.push('One of its ISRCs was taken by another release meanwhile.');
      return report;
    }
    throw error;
  } finally {
    // Not committed: nothing it copied stays in storage.
    for (const key of written) await deps.storage.delete(key).catch(() => undefined);
  }
}

export function refusedWhole(source: string, reason: string): CatalogueImportReleaseReport {
  return {
    source,
    title: null,
    upc: null,
    outcome: 'refused',
    status: null,
    releaseId: null,
    storeState: 'unknown',
    tracks: [],
    reasons: [reason],
    notes: [],
  };
}
