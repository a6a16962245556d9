/**
 * Writing one ERN package to a target (record 154): the resources streamed from storage with their MD5
 * taken on the way, every chunk behind the lease check; a staged package renamed into place; the
 * temporary folders an interrupted attempt left behind removed.
 */
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { type DeliveredFile, deliveryAttempts, releases, tracks } from '../../db/schema';
import type { Storage } from '../../infra/storage/storage';
import { type PackagePlan, STAGING_PREFIX, topFolders } from '../ddex';
import type { LeaseGuard } from './lease';
import type { DeliveryRow } from './state';
import type { Transport } from './transport';

/**
 * Which files a job's package carries (choreography §5, record 331): every file for a new delivery; none
 * for a takedown or a metadata-only update (binaries need not be resent); for an update after a
 * post-release edit, the cover and the WAVs of the tracks its `update_scope` names, as they are now.
 */
export async function resourcesToSend(
  db: DbOrTx,
  job: Pick<DeliveryRow, 'action' | 'releaseId' | 'updateScope'>,
): Promise<boolean | { keys: string[] }> {
  if (job.action === 'new') return true;
  const scope = job.updateScope;
  if (job.action !== 'update' || !scope || (!scope.cover && scope.audioTrackIds.length === 0)) return false;
  const keys: string[] = [];
  if (scope.cover) {
    const [release] = await db
      .select({ coverArtKey: releases.coverArtKey })
      .from(releases)
      .where(eq(releases.id, job.releaseId));
    if (release?.coverArtKey) keys.push(release.coverArtKey);
  }
  if (scope.audioTrackIds.length > 0) {
    const rows = await db
      .select({ fileKey: tracks.fileKey })
      .from(tracks)
      .where(and(eq(tracks.releaseId, job.releaseId), inArray(tracks.id, scope.audioTrackIds)));
    keys.push(...rows.map((row) => row.fileKey));
  }
  return keys.length > 0 ? { keys } : false;
}

/**
 * Streams every resource to `writeFolder/resources/`, hashing as it goes; returns what was written.
 * Every chunk waits for the lease check first: a worker that lost its lease stops before writing more.
 */
export async function uploadResources(
  storage: Storage,
  transport: Transport,
  plan: PackagePlan,
  lease: Pick<LeaseGuard, 'check'>,
): Promise<DeliveredFile[]> {
  if (plan.resources.length === 0) return [];
  await transport.ensureDir(`${plan.writeFolder}/resources`);
  const files: DeliveredFile[] = [];
  for (const resource of plan.resources) {
    await lease.check();
    const { body } = await storage.get(resource.key);
    const hash = createHash('md5');
    // The hash is taken inside the stream (not by a second 'data' listener, which would race the reader).
    const tee = new Transform({
      highWaterMark: 1024 * 1024,
      transform(chunk: Buffer, _encoding, callback) {
        lease.check().then(
          () => {
            hash.update(chunk);
            callback(null, chunk);
          },
          (error: Error) => callback(error),
        );
      },
    });
    body.on('error', (error) => tee.destroy(error));
    tee.on('error', () => body.destroy());
    body.pipe(tee);
    const bytes = await transport.putStream(`${plan.writeFolder}/resources/${resource.name}`, tee);
    files.push({ name: `resources/${resource.name}`, key: resource.key, md5: hash.digest('hex'), bytes });
  }
  return files;
}

/** Renames a staged package (or batch) into place once the lease is confirmed still ours. */
export async function putInPlace(transport: Transport, lease: LeaseGuard, folder: string, isStaged: boolean) {
  if (!isStaged) return;
  const { top, writeTop } = topFolders(folder, true);
  await lease.confirm();
  await transport.rename(writeTop, top);
}

/**
 * Temporary folders the previous attempt of a job left behind when its connection died (it could not
 * remove them then). This worker holds the jobs' lease, so no live upload writes to them: a worker that
 * stalled in one finds its lease gone before it writes again. A release's folder is found by its name;
 * a batch's by the batch id its attempts recorded.
 */
export async function removeLeftovers(
  db: DbOrTx,
  transport: Transport,
  jobs: DeliveryRow[],
  releaseKey: (job: DeliveryRow) => string | null,
) {
  const batches = new Set<string>();
  const releaseKeys = new Set<string>();
  for (const job of jobs) {
    const [previous] = await db
      .select({ outcome: deliveryAttempts.outcome, batchId: deliveryAttempts.batchId })
      .from(deliveryAttempts)
      .where(and(eq(deliveryAttempts.deliveryId, job.id), sql`${deliveryAttempts.outcome} <> 'running'`))
      .orderBy(sql`${deliveryAttempts.number} desc`)
      .limit(1);
    if (previous?.outcome !== 'failed') continue;
    if (previous.batchId) batches.add(previous.batchId);
    const key = releaseKey(job);
    if (!previous.batchId && key) releaseKeys.add(key);
  }
  for (const batchId of batches) await transport.removeTree(`${STAGING_PREFIX}N_${batchId}`);
  if (releaseKeys.size === 0) return;
  for (const entry of await transport.list('')) {
    const isLeftover = [...releaseKeys].some((key) => entry.name.startsWith(`${STAGING_PREFIX}N_${key}_`));
    if (entry.isDir && isLeftover) await transport.removeTree(entry.name);
  }
}
