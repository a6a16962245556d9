/**
 * Clean-up of abandoned uploads: rows older than UPLOAD_STALE_HOURS that no release consumed and no
 * saved draft names, with their staged files and anything already in storage; staged files no live
 * row needs; and storage temp files older than that which a crash left behind. Rows are claimed with
 * FOR UPDATE SKIP LOCKED, so any number of server instances can run this without doing anything twice.
 */
import { and, inArray, lt, ne, notExists, sql } from 'drizzle-orm';
import { releaseDrafts, uploads } from '../../db/schema';
import type { Deps } from '../../deps';
import { stagingFor } from './staging';
import { removeStaged } from './uploads';

type CleanupDeps = Pick<Deps, 'db' | 'config' | 'storage' | 'logger'>;

const BATCH = 100;

export async function cleanUpStaleUploads(deps: CleanupDeps, now: Date = new Date()): Promise<number> {
  const { db, config, storage, logger } = deps;
  const cutoff = new Date(now.getTime() - config.UPLOAD_STALE_HOURS * 3600 * 1000);
  let removed = 0;
  for (;;) {
    const candidates = db
      .select({ id: uploads.id })
      .from(uploads)
      .where(
        and(
          ne(uploads.status, 'consumed'),
          lt(uploads.updatedAt, cutoff),
          notExists(
            db
              .select({ one: sql`1` })
              .from(releaseDrafts)
              .where(
                sql`${releaseDrafts.userId} = ${uploads.userId} and (${releaseDrafts.data} -> 'uploadIds') @> jsonb_build_array(${uploads.id})`,
              ),
          ),
        ),
      )
      .orderBy(uploads.updatedAt)
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const rows = await db.delete(uploads).where(inArray(uploads.id, candidates)).returning();
    for (const row of rows) {
      try {
        await removeStaged(config, row.id);
        for (const key of [row.storageKey, row.thumbSmallKey, row.thumbMediumKey]) {
          if (key) await storage.delete(key);
        }
      } catch (error) {
        logger.warn({ err: error, uploadId: row.id }, 'could not remove the files of an abandoned upload');
      }
    }
    removed += rows.length;
    if (rows.length < BATCH) break;
  }
  removed += await sweepOrphanStagedFiles(deps, cutoff);
  // Temp files of storage writes a crash cut short (a submission copying audio, a cover being stored).
  removed += (await storage.removeStaleTemporaryFiles?.(cutoff)) ?? 0;
  return removed;
}

/**
 * Staged files without a live row: a crash between writing and recording, a row already removed, or
 * audio whose release was committed just before a crash kept the submission from removing it.
 */
async function sweepOrphanStagedFiles(deps: CleanupDeps, cutoff: Date): Promise<number> {
  // The local folder, or the upload objects at the bucket's root when S3 is configured.
  const staged = await stagingFor(deps.config).listStaged();
  const ids = [...staged.keys()];
  if (ids.length === 0) return 0;
  const known = new Set<string>();
  for (let index = 0; index < ids.length; index += 500) {
    const slice = ids.slice(index, index + 500);
    for (const row of await deps.db
      .select({ id: uploads.id })
      .from(uploads)
      .where(and(inArray(uploads.id, slice), ne(uploads.status, 'consumed')))) {
      known.add(row.id);
    }
  }
  let removed = 0;
  for (const id of ids) {
    const modifiedAt = staged.get(id);
    if (known.has(id) || (modifiedAt && modifiedAt >= cutoff)) continue;
    await removeStaged(deps.config, id);
    removed += 1;
  }
  return removed;
}
