/**
 * A delivery row's state while a worker holds it (records 102, 154): the claim with `FOR UPDATE SKIP
 * LOCKED` and a fenced lease on database time, and every change a worker makes afterwards (failed with
 * backoff, delivered, an interrupted attempt's package adopted), each only while the lease is its own.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { type DeliveredFile, deliveries, deliveryAttempts, deliveryTargets } from '../../db/schema';
import type { Deps } from '../../deps';
import type { PackagePlan } from '../ddex';
import { notifyDeliveryFailed } from '../staff-notifications';
import { enqueueDelivery } from './jobs';
import { dbNowPlus, heldBy, type Lease } from './lease';
import type { Transport } from './transport';
import { emitDeliveryEvent } from './webhook-events';

export type WorkerOptions = {
  /** First retry delay; doubles per attempt (default 30 s). */
  retryBaseMs?: number;
  leaseMs?: number;
  /** Most releases in one batch folder (batch profile). */
  batchSize?: number;
  workerId?: string;
};

export type DeliveryRow = typeof deliveries.$inferSelect;
export type WorkerDeps = Pick<Deps, 'db' | 'config' | 'storage' | 'logger' | 'wakeMail'>;

export const INTERRUPTED = 'Interrupted (the worker stopped mid-upload); restarted.';

/**
 * Claims due jobs: one, or for a batch target up to `batchSize` of that target. Due-ness and the lease
 * are database time (`now()`), so instances with skewed clocks agree; every claim gets a new lease id.
 */
export async function claimJobs(
  db: Db,
  options: Required<WorkerOptions>,
  /** Claim this row (and, for a batch target, others due of its target), not the first due one. */
  deliveryId?: string,
): Promise<DeliveryRow[]> {
  // A disabled target takes no new release but still gets updates and takedowns of what it holds
  // (record 177): any job that is not a first send, or whose package already went there.
  const mayGo = or(
    sql`${deliveries.targetId} in (select id from delivery_targets where enabled)`,
    ne(deliveries.action, 'new'),
    sql`exists (select 1 from delivery_attempts a where a.delivery_id = ${deliveries.id} and a.outcome = 'uploaded')`,
  );
  return db.transaction(async (tx) => {
    const due = or(
      and(
        inArray(deliveries.state, ['queued', 'takedown_queued']),
        lte(deliveries.nextAttemptAt, sql`now()`),
      ),
      and(eq(deliveries.state, 'uploading'), lte(deliveries.leaseUntil, sql`now()`)),
    );
    const [first] = await tx
      .select({ delivery: deliveries, profile: deliveryTargets.profile })
      .from(deliveries)
      .innerJoin(deliveryTargets, eq(deliveryTargets.id, deliveries.targetId))
      .where(
        and(
          due,
          isNull(deliveryTargets.deletedAt),
          mayGo,
          deliveryId ? eq(deliveries.id, deliveryId) : undefined,
        ),
      )
      .orderBy(asc(deliveries.nextAttemptAt), asc(deliveries.id))
      .limit(1)
      .for('update', { of: deliveries, skipLocked: true });
    if (!first) return [];
    let rows = [first.delivery];
    if (first.profile === 'batch' && options.batchSize > 1) {
      const more = await tx
        .select()
        .from(deliveries)
        .where(
          and(
            due,
            mayGo,
            eq(deliveries.targetId, first.delivery.targetId),
            sql`${deliveries.id} <> ${first.delivery.id}`,
          ),
        )
        .orderBy(asc(deliveries.nextAttemptAt), asc(deliveries.id))
        .limit(options.batchSize - 1)
        .for('update', { skipLocked: true });
      rows = rows.concat(more);
    }
    const leaseId = randomUUID();
    const claimed: DeliveryRow[] = [];
    for (const row of rows) {
      if (row.state === 'uploading') {
        // Its worker died or stalled mid-upload: close the dangling attempt; the package restarts in a
        // new folder. The old worker finds its lease gone at its next check and stops writing.
        await tx
          .update(deliveryAttempts)
          .set({
            outcome: 'failed',
            error: INTERRUPTED,
            finishedAt: sql`now()`,
          })
          .where(and(eq(deliveryAttempts.deliveryId, row.id), eq(deliveryAttempts.outcome, 'running')));
      }
      const [updated] = await tx
        .update(deliveries)
        .set({
          state: 'uploading',
          leaseUntil: dbNowPlus(options.leaseMs),
          leaseOwner: options.workerId,
          leaseId,
          attempts: row.attempts + 1,
          updatedAt: sql`now()`,
          stateChangedAt: sql`now()`,
        })
        .where(eq(deliveries.id, row.id))
        .returning();
      if (updated) claimed.push(updated);
    }
    return claimed;
  });
}

/** The lease of a claim (all its rows share one lease id). */
export const leaseOf = (jobs: DeliveryRow[], options: Required<WorkerOptions>): Lease => ({
  ids: jobs.map((job) => job.id),
  owner: options.workerId,
  leaseId: jobs[0]?.leaseId ?? '',
  leaseMs: options.leaseMs,
});

/** The row is still this claim's: the worker's id and the claim's lease id. */
const isHeld = (job: DeliveryRow, options: Required<WorkerOptions>) =>
  and(eq(deliveries.id, job.id), heldBy({ owner: options.workerId, leaseId: job.leaseId ?? '' }));

export async function failJob(
  deps: WorkerDeps,
  job: DeliveryRow,
  attemptId: string | null,
  message: string,
  options: Required<WorkerOptions>,
) {
  const isGivenUp = job.attempts >= job.maxAttempts;
  const isStillOurs = await deps.db.transaction(async (tx) => {
    const released = await tx
      .update(deliveries)
      .set({
        state: isGivenUp ? 'failed' : job.action === 'takedown' ? 'takedown_queued' : 'queued',
        lastError: message,
        leaseUntil: null,
        leaseOwner: null,
        leaseId: null,
        nextAttemptAt: dbNowPlus(options.retryBaseMs * 2 ** Math.max(0, job.attempts - 1)),
        updatedAt: sql`now()`,
        stateChangedAt: sql`now()`,
      })
      .where(isHeld(job, options))
      .returning({ id: deliveries.id, at: deliveries.nextAttemptAt });
    // Another worker took the job over: its attempt was closed then, and the job is no longer ours.
    if (released.length === 0) return false;
    // The next attempt's job, in the transaction that schedules it (the row's next_attempt_at).
    const at = released[0]?.at;
    if (!isGivenUp) await enqueueDelivery(tx, job.id, at ? new Date(at) : undefined);
    if (attemptId) {
      await tx
        .update(deliveryAttempts)
        .set({ outcome: 'failed', error: message, finishedAt: sql`now()` })
        .where(eq(deliveryAttempts.id, attemptId));
    }
    if (isGivenUp) {
      await notifyDeliveryFailed(tx, job.id, job.attempts, message);
      await emitDeliveryEvent(tx, job.id, 'delivery.failed', { reason: message });
    }
    return true;
  });
  if (isGivenUp && isStillOurs) deps.wakeMail();
}

export const packageBytes = (files: DeliveredFile[], xml: string) =>
  files.reduce((sum, f) => sum + f.bytes, 0) + Buffer.byteLength(xml);

/**
 * Release profile: the previous attempt was interrupted (its worker died or stalled) after its package
 * was renamed into place but before it recorded so. Then that package is the delivery: it is adopted
 * (the old attempt counts as uploaded, this one is dropped) instead of sending a second one.
 */
export async function adoptInterrupted(
  db: Db,
  transport: Transport,
  job: DeliveryRow,
  currentAttemptId: string,
  releaseKey: string,
  options: Required<WorkerOptions>,
): Promise<boolean> {
  const [previous] = await db
    .select()
    .from(deliveryAttempts)
    .where(and(eq(deliveryAttempts.deliveryId, job.id), sql`${deliveryAttempts.id} <> ${currentAttemptId}`))
    .orderBy(sql`${deliveryAttempts.number} desc`)
    .limit(1);
  if (!previous || previous.error !== INTERRUPTED || !previous.remotePath || previous.messageXml === '')
    return false;
  const entries = await transport.list(previous.remotePath);
  if (!entries.some((entry) => entry.name === `${releaseKey}.xml` && !entry.isDir)) return false;
  await db.transaction(async (tx) => {
    if (!(await markDelivered(tx, job, options, previous.id))) return;
    await tx
      .update(deliveryAttempts)
      .set({ outcome: 'uploaded', error: null })
      .where(eq(deliveryAttempts.id, previous.id));
    await tx.delete(deliveryAttempts).where(eq(deliveryAttempts.id, currentAttemptId));
  });
  return true;
}

/**
 * The job is delivered (or its takedown sent), only while the lease is still ours; false when it is not.
 * `delivery.sent` names the attempt whose package went (its message id).
 */
async function markDelivered(
  tx: DbOrTx,
  job: DeliveryRow,
  options: Required<WorkerOptions>,
  attemptId: string,
): Promise<boolean> {
  const delivered = await tx
    .update(deliveries)
    .set({
      state: job.action === 'takedown' ? 'takedown_sent' : 'delivered',
      deliveredAt: sql`now()`,
      lastError: null,
      leaseUntil: null,
      leaseOwner: null,
      leaseId: null,
      updatedAt: sql`now()`,
      stateChangedAt: sql`now()`,
    })
    .where(isHeld(job, options))
    .returning({ id: deliveries.id });
  if (delivered.length === 0) return false;
  await emitDeliveryEvent(tx, job.id, 'delivery.sent', { messageId: attemptId });
  return true;
}

export async function lastDeliveredFiles(db: DbOrTx, deliveryId: string): Promise<DeliveredFile[]> {
  // The last full package's files, then those updates resent since (record 331): the newest per file.
  const rows = await db
    .select({ files: deliveryAttempts.files, action: deliveryAttempts.action })
    .from(deliveryAttempts)
    .where(
      and(
        eq(deliveryAttempts.deliveryId, deliveryId),
        eq(deliveryAttempts.outcome, 'uploaded'),
        inArray(deliveryAttempts.action, ['new', 'update']),
      ),
    )
    .orderBy(sql`${deliveryAttempts.number} desc`);
  const lastNew = rows.findIndex((row) => row.action === 'new');
  if (lastNew < 0) return [];
  const byName = new Map<string, DeliveredFile>();
  for (const row of rows.slice(0, lastNew + 1).reverse()) {
    for (const file of row.files ?? []) byName.set(file.key ?? file.name, file);
  }
  return [...byName.values()];
}

/** The attempt is uploaded and the job delivered, in one transaction and only while the lease is ours. */
export async function recordUploaded(
  db: Db,
  job: DeliveryRow,
  attemptId: string,
  plan: PackagePlan,
  xml: string,
  files: DeliveredFile[],
  options: Required<WorkerOptions>,
) {
  await db.transaction(async (tx) => {
    if (!(await markDelivered(tx, job, options, attemptId))) return;
    await tx
      .update(deliveryAttempts)
      .set({
        remotePath: plan.ackFolder,
        messageXml: xml,
        files,
        bytes: packageBytes(files, xml),
        outcome: 'uploaded',
        finishedAt: sql`now()`,
      })
      .where(eq(deliveryAttempts.id, attemptId));
  });
}

export function resolveOptions(options: WorkerOptions): Required<WorkerOptions> {
  return {
    retryBaseMs: options.retryBaseMs ?? 30_000,
    leaseMs: options.leaseMs ?? 5 * 60_000,
    batchSize: options.batchSize ?? 50,
    workerId: options.workerId ?? randomUUID(),
  };
}
