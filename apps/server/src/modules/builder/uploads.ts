/**
 * Resumable uploads (tus), staged where staging.ts says (the bucket with S3 configured, else the
 * instance's disk), checked by content when the last byte arrives, and tracked in the `uploads`
 * table. Covers move into storage as soon as they pass; audio waits in staging until the release is
 * submitted (see service.ts).
 */
import { randomUUID } from 'node:crypto';
import { LIMITS } from '@tunedrop/shared';
import { AUDIO_CHECK_TEXTS, isFakeLossless } from '@tunedrop/shared/schemas/audio-checks';
import {
  BUILDER_MESSAGES,
  isWavFileName,
  sanitizeFileName,
  type UploadInfo,
  uploadFileNameSchema,
  wavTooLargeMessage,
} from '@tunedrop/shared/schemas/builder';
import { Server as TusServer } from '@tus/server';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { uploads } from '../../db/schema';
import type { Deps } from '../../deps';
import type { Viewer } from '../../lib/context';
import { internalErrorBody } from '../../lib/errors';
import { run } from '../../lib/sql';
import { CoverError, checkCover, readAndAnalyse, THUMB_SIZES, WavError } from '../catalogue';
import { closeStaging, stagingFor, UPLOAD_ID_PATTERN } from './staging';
import { PgUploadLocker } from './upload-locker';

export type UploadRow = typeof uploads.$inferSelect;

export const UPLOADS_PATH = '/api/uploads';
/** The same uploads for an API key (issue 40): one tus server, its Location under the path it was asked on. */
export const V1_UPLOADS_PATH = '/api/v1/uploads';
const uploadsPathOf = (url: string) =>
  new URL(url, 'http://localhost').pathname.startsWith(`${V1_UPLOADS_PATH}`) ? V1_UPLOADS_PATH : UPLOADS_PATH;

export { UPLOAD_ID_PATTERN };
/** Unfinished uploads one user may hold at once: 20 tracks, a cover and room for replacements. */
export const MAX_OPEN_UPLOADS_PER_USER = 40;

/** Removes whatever an upload left in staging (local files, or the bucket's upload objects). */
export async function removeStaged(config: Config, id: string): Promise<void> {
  await stagingFor(config).remove(id);
}

/**
 * A storage key segment from a sanitised file name: it must start with a letter or digit (keys
 * never have dot or underscore segments) and stays short, keeping the extension.
 */
export function keySegment(sanitizedName: string, fallback = 'file'): string {
  let name = sanitizedName.replace(/^[^A-Za-z0-9]+/, '');
  if (name.length > 120) {
    const dot = name.lastIndexOf('.');
    const extension = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
    name = name.slice(0, 120 - extension.length) + extension;
  }
  return name || fallback;
}

const stem = (name: string) => name.replace(/\.[^.]*$/, '') || 'cover';

export function toUploadInfo(row: UploadRow, receivedBytes?: number): UploadInfo {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    originalName: row.originalName,
    sizeBytes: row.sizeBytes,
    receivedBytes:
      receivedBytes ?? (row.status === 'uploading' || row.status === 'rejected' ? 0 : row.sizeBytes),
    error: row.error,
    details: row.details ?? null,
  };
}

/** How many bytes of an unfinished upload the staging area holds. */
export async function receivedBytes(config: Config, id: string): Promise<number> {
  return stagingFor(config).receivedBytes(id);
}

export async function findUploads(db: DbOrTx, userId: string, ids: string[]): Promise<UploadRow[]> {
  const valid = ids.filter((id) => UPLOAD_ID_PATTERN.test(id));
  if (valid.length === 0) return [];
  return db
    .select()
    .from(uploads)
    .where(and(eq(uploads.userId, userId), inArray(uploads.id, valid)));
}

/** The caller's upload, with its clock reset: every tus request on it proves it is still alive. */
export async function touchOwnUpload(db: DbOrTx, id: string, userId: string): Promise<UploadRow | undefined> {
  const [row] = await db
    .update(uploads)
    .set({ updatedAt: new Date() })
    .where(and(eq(uploads.id, id), eq(uploads.userId, userId)))
    .returning();
  return row;
}

/** Deletes an upload the user no longer wants: its staged file, anything already in storage, its row. */
export async function discardUpload(
  deps: Pick<Deps, 'db' | 'config' | 'storage'>,
  row: UploadRow,
): Promise<void> {
  if (row.status === 'consumed') return;
  const [deleted] = await deps.db
    .delete(uploads)
    .where(and(eq(uploads.id, row.id), notInArray(uploads.status, ['consumed'])))
    .returning();
  if (!deleted) return;
  await removeStaged(deps.config, row.id);
  for (const key of [deleted.storageKey, deleted.thumbSmallKey, deleted.thumbMediumKey]) {
    if (key) await deps.storage.delete(key);
  }
}

/**
 * Checks a completely received upload by its content and records the verdict. Safe to call more
 * than once: only the first call on an 'uploading' row with all its bytes does anything.
 */
export async function finalizeUpload(
  deps: Pick<Deps, 'db' | 'config' | 'storage' | 'logger'>,
  id: string,
): Promise<UploadRow | undefined> {
  const { db, config, storage } = deps;
  const [row] = await db.select().from(uploads).where(eq(uploads.id, id));
  if (row?.status !== 'uploading') return row;
  const staging = stagingFor(config);
  if ((await staging.readableSize(id)) !== row.sizeBytes) return row;

  const settle = async (values: Partial<typeof uploads.$inferInsert>) => {
    const [updated] = await db
      .update(uploads)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(uploads.id, id), eq(uploads.status, 'uploading')))
      .returning();
    return updated ?? (await db.select().from(uploads).where(eq(uploads.id, id)))[0];
  };

  try {
    if (row.kind === 'audio') {
      // Positional reads: the header, then the samples in blocks (ranged GETs when it is in the bucket).
      const source = await staging.open(id);
      const { wav, analysis } = await readAndAnalyse(source).finally(() => source.close());
      // A lossy file saved as WAV is refused with its reason (record 298); the warnings stay in the details.
      if (isFakeLossless(analysis)) {
        const text = AUDIO_CHECK_TEXTS.fakeLossless(analysis);
        throw new WavError(`${text.reason} ${text.fix}`);
      }
      return await settle({
        status: 'checked',
        details: {
          format: wav.format,
          sampleRate: wav.sampleRate,
          bitDepth: wav.bitDepth,
          channels: wav.channels,
          durationMs: wav.durationMs,
          dataBytes: wav.dataBytes,
          ...analysis,
        },
      });
    }
    const cover = await checkCover(await staging.whole(id, LIMITS.coverArtMaxBytes));
    // Keys depend only on the row, so a repeated call writes the same objects.
    const prefix = `${row.userId}/${row.createdAt.getTime()}`;
    const name = keySegment(row.sanitizedName, 'cover');
    const storageKey = `${prefix}-${name}`;
    const thumbSmallKey = `${prefix}-${stem(name)}-thumb-${THUMB_SIZES.small}.jpg`;
    const thumbMediumKey = `${prefix}-${stem(name)}-thumb-${THUMB_SIZES.medium}.jpg`;
    await storage.putBuffer(thumbSmallKey, cover.thumbSmall, 'image/jpeg');
    await storage.putBuffer(thumbMediumKey, cover.thumbMedium, 'image/jpeg');
    // Copy, record, then clear staging: a crash at any point leaves the staged file for the next
    // call (draft reload runs this again), which writes the same keys (decision 084).
    await staging.copyInto(storage, storageKey, id, cover.format === 'png' ? 'image/png' : 'image/jpeg');
    const settled = await settle({
      status: 'checked',
      storageKey,
      thumbSmallKey,
      thumbMediumKey,
      details: { format: cover.format, width: cover.width, height: cover.height },
    });
    await removeStaged(config, id);
    return settled;
  } catch (error) {
    if (!(error instanceof WavError || error instanceof CoverError)) throw error;
    await removeStaged(config, id);
    return settle({ status: 'rejected', error: error.message });
  }
}

// ---------------------------------------------------------------- the tus server

type TusFailure = { status_code: number; body: string };
const tusFailure = (status: number, code: string, message: string): TusFailure => ({
  status_code: status,
  body: JSON.stringify({ error: { code, message } }),
});

/** The signed-in viewer of each tus request, set by the route before the tus server sees the request. */
export const requestViewers = new WeakMap<Request, Viewer>();
/** The request id of each tus request, for the log line of an unexpected failure. */
export const requestIds = new WeakMap<Request, string>();

const internalFailure = (requestId: string | undefined): TusFailure => ({
  status_code: 500,
  body: JSON.stringify({ error: internalErrorBody(requestId) }),
});

const servers = new WeakMap<Deps, TusServer>();

async function countOpenUploads(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(uploads)
    .where(and(eq(uploads.userId, userId), inArray(uploads.status, ['uploading', 'checked'])));
  return row?.count ?? 0;
}

/**
 * Records a new upload unless its user already holds MAX_OPEN_UPLOADS_PER_USER unfinished ones;
 * false when the cap is reached. The count and the insert run under a per-user advisory lock held to
 * the end of the transaction, so parallel creations are counted one after another and never beat
 * the cap (a plain count-then-insert let 80 parallel requests make 80 rows).
 */
export async function createUploadRow(db: DbOrTx, values: typeof uploads.$inferInsert): Promise<boolean> {
  return db.transaction(async (tx) => {
    await run(
      tx,
      sql`select pg_advisory_xact_lock(hashtext('tunedrop:uploads'), hashtext(${values.userId}))`,
    );
    if ((await countOpenUploads(tx, values.userId)) >= MAX_OPEN_UPLOADS_PER_USER) return false;
    await tx.insert(uploads).values(values);
    return true;
  });
}

const lockers = new WeakMap<Config, PgUploadLocker>();

/**
 * One tus server per running system. With S3 on PostgreSQL its locks are advisory locks shared by
 * every instance; otherwise tus's in-process locker, since one process takes all of an upload's
 * requests (local staging, or PGlite, which only one process opens; decision 158).
 */
export function tusServerFor(deps: Deps): TusServer {
  const existing = servers.get(deps);
  if (existing) return existing;
  const { config, db, logger } = deps;
  const staging = stagingFor(config);
  let locker = lockers.get(config);
  if (!locker && staging.kind === 's3' && config.DATABASE_URL) {
    locker = new PgUploadLocker({ connectionString: config.DATABASE_URL, logger });
    lockers.set(config, locker);
  }
  const server = new TusServer({
    path: UPLOADS_PATH,
    datastore: staging.datastore,
    ...(locker ? { locker } : {}),
    relativeLocation: true,
    // A relative Location under the path the upload was created on, so a key's client stays under /api/v1.
    generateUrl: (req, { id }) => `${uploadsPathOf(req.url)}/${id}`,
    respectForwardedHeaders: config.TRUST_PROXY === '1',
    maxSize: Math.max(config.UPLOAD_MAX_WAV_BYTES, LIMITS.coverArtMaxBytes),
    namingFunction: () => randomUUID().replace(/-/g, ''),
    async onUploadCreate(req, upload) {
      const viewer = requestViewers.get(req as unknown as Request);
      if (!viewer) throw tusFailure(401, 'unauthorized', 'Please sign in.');
      const kind = upload.metadata?.kind;
      if (kind !== 'cover' && kind !== 'audio') {
        throw tusFailure(400, 'invalid_upload', 'Say whether the file is cover art or audio.');
      }
      // The text rule of every other field (a NUL reached the database and came back as a 500 with its SQL).
      const name = uploadFileNameSchema.safeParse(upload.metadata?.filename ?? '');
      if (!name.success) {
        const message = name.error.issues[0]?.message ?? BUILDER_MESSAGES.fileNameRequired;
        throw tusFailure(
          message === BUILDER_MESSAGES.fileNameRequired ? 400 : 422,
          'invalid_upload',
          message,
        );
      }
      const originalName = name.data;
      if (upload.sizeIsDeferred || upload.size === undefined) {
        throw tusFailure(400, 'invalid_upload', 'The file size must be known when the upload starts.');
      }
      if (upload.size === 0) throw tusFailure(400, 'invalid_upload', 'The file is empty.');
      if (kind === 'audio') {
        if (!isWavFileName(originalName))
          throw tusFailure(415, 'invalid_upload', BUILDER_MESSAGES.audioFileFormat);
        if (upload.size > config.UPLOAD_MAX_WAV_BYTES) {
          throw tusFailure(413, 'too_large', wavTooLargeMessage(config.UPLOAD_MAX_WAV_BYTES));
        }
      } else if (upload.size >= LIMITS.coverArtMaxBytes) {
        throw tusFailure(413, 'too_large', BUILDER_MESSAGES.coverArtSize);
      }
      const isCreated = await createUploadRow(db, {
        id: upload.id,
        userId: viewer.account.id,
        kind,
        originalName,
        sanitizedName: sanitizeFileName(originalName),
        sizeBytes: upload.size,
        status: 'uploading',
      });
      if (!isCreated) {
        throw tusFailure(
          429,
          'too_many_uploads',
          'You have too many unfinished uploads. Submit your release or remove some files first.',
        );
      }
      return {};
    },
    async onUploadFinish(_req, upload) {
      const row = await finalizeUpload(deps, upload.id);
      if (row?.status === 'rejected') {
        throw tusFailure(422, 'file_rejected', row.error ?? 'The file did not pass its checks.');
      }
      return {};
    },
    // Our refusals pass as they are; anything else (a database error, a full disk) is logged with the
    // request id and answered with a generic message, never with its own text (issue 22).
    onResponseError(req, error) {
      if ('status_code' in error && error.status_code < 500) return undefined;
      const requestId = requestIds.get(req as unknown as Request);
      logger.error({ err: error, reqId: requestId }, 'upload failed');
      return internalFailure(requestId);
    },
  });
  servers.set(deps, server);
  return server;
}

/** Closes the upload locker's connection and the staging's S3 client of a stopping system. */
export async function closeUploads(config: Config): Promise<void> {
  const locker = lockers.get(config);
  lockers.delete(config);
  await locker?.close();
  closeStaging(config);
}
