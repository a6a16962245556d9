/**
 * The builder's file rules that other modules re-use (public entry point, record 121): which upload a
 * release may take, and the crash-safe copy of checked WAVs from staging into storage (decision 084).
 * The submission (service.ts) and the owner's file replacement (releases/files.ts) both go through here,
 * so a replaced file passes exactly the checks a submitted one does.
 */
import { audioAnalysisOf } from '@tunedrop/shared/schemas/audio-checks';
import { BUILDER_MESSAGES } from '@tunedrop/shared/schemas/builder';
import { and, eq, isNull, like, or } from 'drizzle-orm';
import { uploads } from '../../db/schema';
import type { Deps } from '../../deps';
import { validationError } from '../../lib/errors';
import type { TrackFile } from '../catalogue';
import { stagingFor } from './staging';
import { finalizeUpload, findUploads, keySegment, removeStaged, type UploadRow } from './uploads';

export type { UploadRow } from './uploads';

type FileDeps = Pick<Deps, 'db' | 'config' | 'storage' | 'logger'>;

/** A file claimed by a submission with another idempotency key (the same file in two releases at once). */
export class FileClaimedElsewhere extends Error {}

/** An upload a release may take: this kind, checked by content, not consumed; a cover already stored. */
export function isUsableUpload(row: UploadRow | undefined, kind: 'cover' | 'audio'): boolean {
  if (row?.kind !== kind || row.status !== 'checked') return false;
  return kind === 'audio' || Boolean(row.storageKey);
}

export const notUsableMessage = (kind: 'cover' | 'audio') =>
  kind === 'cover' ? BUILDER_MESSAGES.coverArtNotUsable : BUILDER_MESSAGES.audioNotUsable;

/**
 * The caller's upload `id` if a release may take it as its `kind`, else a 422 on `field`: a file the
 * content checks refused says why with the builder's own message (wrong sample rate, 3000x3000…), anything
 * else (someone else's, consumed, unfinished, unknown) the builder's "not found or did not pass" message.
 * An upload whose last bytes arrived but whose check never ran (a crash in between) is checked now.
 */
export async function usableUpload(
  deps: FileDeps,
  userId: string,
  id: string,
  kind: 'cover' | 'audio',
  field = 'uploadId',
): Promise<UploadRow> {
  let row: UploadRow | undefined = (await findUploads(deps.db, userId, [id]))[0];
  if (row?.status === 'uploading') row = (await finalizeUpload(deps, row.id)) ?? row;
  if (row && isUsableUpload(row, kind)) return row;
  const message =
    row?.kind === kind && row.status === 'rejected' && row.error ? row.error : notUsableMessage(kind);
  throw validationError(message, { [field]: message });
}

/**
 * Copies each checked WAV from staging (local disk, or the bucket: a server-side copy) into storage under `{userId}/{releaseId}/{name}` in an order
 * that survives a crash at every step (decision 084):
 * 1. claim: the row records its key (`storage_key`, set where null or already this key), so a file of
 *    an abandoned submission is found and removed by the clean-up with its row;
 * 2. copy: staging stays untouched and the storage write is atomic at the key (temp file, then
 *    rename; a copy cut short leaves only a `.tmp` that the clean-up removes);
 * 3. verify: the stored size must equal the uploaded size, else the copy is made again.
 * A retry with the same idempotency key finds its own claims and redoes only what is missing; two
 * concurrent attempts (a double click) copy the same bytes to the same keys and the release insert
 * decides which one answers. Staged files are removed only after the release is committed.
 * `reservedKeys` are keys already in use under the release (a replaced track's current file), which a
 * new file never takes, so the old file stays intact until the new one is committed.
 */
export async function copyAudioIntoStorage(
  deps: FileDeps,
  userId: string,
  releaseId: string,
  audio: UploadRow[],
  reservedKeys: Iterable<string> = [],
): Promise<Map<string, string>> {
  const { db, storage, config } = deps;
  const keys = new Map<string, string>();
  const prefix = `${userId}/${releaseId}/`;
  const ownIds = new Set(audio.map((row) => row.id));
  // Names already taken under this release by other files of earlier attempts, so two files never share a key.
  const taken = new Set([
    ...reservedKeys,
    ...(
      await db
        .select({ id: uploads.id, key: uploads.storageKey })
        .from(uploads)
        .where(and(eq(uploads.userId, userId), like(uploads.storageKey, `${prefix}%`)))
    )
      .filter((row) => !ownIds.has(row.id))
      .flatMap((row) => (row.key === null ? [] : [row.key])),
  ]);
  for (const row of audio) {
    let key = row.storageKey;
    if (key && !key.startsWith(prefix)) throw new FileClaimedElsewhere();
    if (!key) {
      const name = keySegment(row.sanitizedName, 'track.wav');
      key = `${prefix}${name}`;
      for (let suffix = 2; taken.has(key); suffix += 1) {
        const dot = name.lastIndexOf('.');
        key =
          dot > 0
            ? `${prefix}${name.slice(0, dot)}-${suffix}${name.slice(dot)}`
            : `${prefix}${name}-${suffix}`;
      }
      const [claimed] = await db
        .update(uploads)
        .set({ storageKey: key, updatedAt: new Date() })
        .where(
          and(
            eq(uploads.id, row.id),
            eq(uploads.status, 'checked'),
            or(isNull(uploads.storageKey), eq(uploads.storageKey, key)),
          ),
        )
        .returning({ storageKey: uploads.storageKey });
      // Claimed in between by a concurrent attempt: take the key it chose if it is ours, else refuse.
      if (!claimed) {
        const [now] = await db
          .select({ storageKey: uploads.storageKey })
          .from(uploads)
          .where(eq(uploads.id, row.id));
        if (!now?.storageKey?.startsWith(prefix)) throw new FileClaimedElsewhere();
        key = now.storageKey;
      }
    }
    taken.add(key);
    if ((await storage.sizeOf(key)) !== row.sizeBytes) {
      await stagingFor(config).copyInto(storage, key, row.id, 'audio/wav');
      const stored = await storage.sizeOf(key);
      if (stored !== row.sizeBytes) {
        throw new Error(`stored ${key} has ${stored} bytes, expected ${row.sizeBytes}`);
      }
    }
    keys.set(row.id, key);
  }
  return keys;
}

/** Staged copies of audio that now lives in storage; a crash before this leaves them to the clean-up. */
export async function removeStagedAudio(deps: FileDeps, audio: UploadRow[]): Promise<void> {
  for (const row of audio) {
    await removeStaged(deps.config, row.id).catch((error: unknown) =>
      deps.logger.warn({ err: error, uploadId: row.id }, 'could not remove a staged file'),
    );
  }
}

/** The technical fields of a track row taken from a checked WAV upload (as the submission stores them). */
export function trackFileFields(file: UploadRow, fileKey: string): TrackFile {
  const details = file.details ?? {};
  return {
    durationMs: Number(details.durationMs) || null,
    fileKey,
    originalFileName: file.originalName,
    fileSizeBytes: file.sizeBytes,
    sampleRate: Number(details.sampleRate) || null,
    bitDepth: Number(details.bitDepth) || null,
    channels: Number(details.channels) || null,
    audioAnalysis: audioAnalysisOf(details),
  };
}
