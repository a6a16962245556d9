/**
 * The delivery worker (records 100, 102, 156), run by the `delivery.*` jobs (jobs.ts). Jobs are rows of `deliveries`, claimed with
 * `FOR UPDATE SKIP LOCKED` and a lease (`lease_until`, renewed while uploading), so any number of
 * workers in any number of server instances never deliver one twice, and a job whose worker died is
 * taken over once its lease ran out (its attempt is closed as interrupted and the upload restarts in a
 * new folder). Failures back off exponentially; after `max_attempts` the job is `failed` and admins
 * are mailed. Acknowledgement files are polled per outstanding folder; every file is recorded once
 * (again if it grew, for a half-written one) and never stops the poll.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import {
  type DeliveredFile,
  deliveries,
  deliveryAcks,
  deliveryAttempts,
  deliveryTargets,
  profiles,
  releaseStatusEvents,
  releaseStoreTakedowns,
  releases,
  userRoles,
} from '../../db/schema';
import type { Deps } from '../../deps';
import { enqueueMail } from '../../infra/mail/mail';
import {
  manifestXml,
  md5,
  newMessageId,
  type PackagePlan,
  packageXml,
  parseAck,
  planPackage,
  STAGING_PREFIX,
  stamp,
  topFolders,
  xmlName,
} from '../ddex';
import { readSettings } from './codes';
import { openTargetTransport } from './connect';
import { dbNowPlus, heldBy, type Lease, type LeaseGuard, LeaseLostError, leaseGuard } from './lease';
import { uploadResources } from './packaging';
import { enqueueDelivery } from './queues';
import { servesPlatform, type TargetRow } from './targets';
import { describeTransportError, type Transport } from './transport';

export type WorkerOptions = {
  /** First retry delay; doubles per attempt (default 30 s). */
  retryBaseMs?: number;
  leaseMs?: number;
  /** Most releases in one batch folder (batch profile). */
  batchSize?: number;
  workerId?: string;
};

type DeliveryRow = typeof deliveries.$inferSelect;
type WorkerDeps = Pick<Deps, 'db' | 'config' | 'storage' | 'logger' | 'wakeMail'>;

const ACK_MAX_BYTES = 64 * 1024;
const INTERRUPTED = 'Interrupted (the worker stopped mid-upload); restarted.';

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
        and(due, eq(deliveryTargets.enabled, true), deliveryId ? eq(deliveries.id, deliveryId) : undefined),
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
const leaseOf = (jobs: DeliveryRow[], options: Required<WorkerOptions>): Lease => ({
  ids: jobs.map((job) => job.id),
  owner: options.workerId,
  leaseId: jobs[0]?.leaseId ?? '',
  leaseMs: options.leaseMs,
});

/** The row is still this claim's: the worker's id and the claim's lease id. */
const isHeld = (job: DeliveryRow, options: Required<WorkerOptions>) =>
  and(eq(deliveries.id, job.id), heldBy({ owner: options.workerId, leaseId: job.leaseId ?? '' }));

async function mailAdmins(db: DbOrTx, subject: string, text: string) {
  const admins = await db
    .select({ email: profiles.email })
    .from(userRoles)
    .innerJoin(profiles, eq(profiles.id, userRoles.userId))
    .where(eq(userRoles.role, 'admin'));
  for (const admin of admins) await enqueueMail(db, { to: admin.email, subject, text });
}

async function failJob(
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
      const [info] = await tx
        .select({ title: releases.title, target: deliveryTargets.name })
        .from(deliveries)
        .innerJoin(releases, eq(releases.id, deliveries.releaseId))
        .innerJoin(deliveryTargets, eq(deliveryTargets.id, deliveries.targetId))
        .where(eq(deliveries.id, job.id));
      await mailAdmins(
        tx,
        `Delivery failed: ${info?.title ?? job.releaseId} to ${info?.target ?? job.targetId}`,
        `Tunedrop gave up delivering "${info?.title ?? job.releaseId}" to ${info?.target ?? job.targetId} after ${job.attempts} attempts.\n\nLast error: ${message}\n\nOpen ${deps.config.appUrl}/admin/deliveries to retry.`,
      );
    }
    return true;
  });
  if (isGivenUp && isStillOurs) deps.wakeMail();
}

/**
 * Uploads the claimed jobs (one release, or one batch for a batch target). Where the target can rename
 * folders the package (or the whole batch, manifest last) is written under a temporary name and renamed
 * into place once complete; a failure removes it. A worker that finds its lease gone stops there: no
 * rename, no message, no manifest, no state change (the new owner delivers).
 */
export async function processJobs(
  deps: WorkerDeps,
  jobs: DeliveryRow[],
  options: Required<WorkerOptions>,
): Promise<void> {
  if (jobs.length === 0) return;
  const [targetRow] = await deps.db
    .select()
    .from(deliveryTargets)
    .where(eq(deliveryTargets.id, jobs[0]?.targetId ?? ''));
  if (!targetRow) return;
  const settings = await readSettings(deps.db, deps.config);
  const at = new Date();
  const isBatch = targetRow.profile === 'batch';
  const batchId = isBatch ? stamp(at) : null;
  const batchFolder = batchId ? `N_${batchId}` : undefined;
  const lease = leaseGuard(deps.db, leaseOf(jobs, options));

  // One attempt row per job, before any byte is sent, so the dashboard shows it running.
  const attempts = new Map<string, { id: string; messageId: string }>();
  for (const job of jobs) {
    const messageId = newMessageId(at);
    const [attempt] = await deps.db
      .insert(deliveryAttempts)
      .values({
        deliveryId: job.id,
        // Numbered across retries (the admin's Retry resets `attempts`, not the history).
        number: sql`(select count(*) + 1 from delivery_attempts where delivery_id = ${job.id})`,
        action: job.action,
        messageId,
        batchId,
      })
      .returning({ id: deliveryAttempts.id });
    if (attempt) attempts.set(job.id, { id: attempt.id, messageId });
  }

  let transport: Transport;
  try {
    transport = await openTargetTransport(deps.db, deps.config, targetRow);
  } catch (error) {
    lease.stop();
    const message = describeTransportError(error);
    for (const job of jobs) await failJob(deps, job, attempts.get(job.id)?.id ?? null, message, options);
    return;
  }
  const isStaged = transport.canRenameFolders;
  const manifestItems: Parameters<typeof manifestXml>[0]['messages'] = [];
  const written: { job: DeliveryRow; plan: PackagePlan; xml: string; files: DeliveredFile[] }[] = [];
  /** Top folders written so far (temporary names while staged), removed again if the upload fails. */
  const tops = new Set<string>();
  let failedJob: DeliveryRow | null = null;
  try {
    if (isBatch && isStaged) await removeLeftovers(deps.db, transport, jobs, () => null);
    for (const job of jobs) {
      failedJob = job;
      const attempt = attempts.get(job.id);
      if (!attempt) continue;
      const plan = await planPackage(deps.db, job.releaseId, {
        ...(batchFolder ? { batchFolder } : {}),
        at,
        withResources: job.action === 'new',
        isStaged,
      });
      const { writeTop } = topFolders(plan.folder, isStaged);
      if (!isBatch && (await adoptInterrupted(deps.db, transport, job, attempt.id, plan.releaseKey, options)))
        continue;
      if (!isBatch && isStaged) await removeLeftovers(deps.db, transport, [job], () => plan.releaseKey);
      tops.add(writeTop);
      // Updates and takedowns carry no binaries (choreography §5); their File elements reuse the
      // hashes of the last package that did.
      let files: DeliveredFile[] = [];
      if (job.action === 'new') {
        files = await uploadResources(deps.storage, transport, plan, lease);
      } else {
        files = await lastDeliveredFiles(deps.db, job.id);
        await transport.ensureDir(plan.writeFolder);
      }
      const xml = packageXml(plan, {
        sender: { partyId: settings.ddexSenderPartyId, name: settings.ddexSenderName },
        target: targetRow,
        platforms: job.action === 'takedown' ? [] : job.platforms,
        files,
        messageId: attempt.messageId,
        at,
      });
      // What this attempt sends, recorded before it becomes visible: a worker taking over after a crash
      // between the rename and the state change finds the package in place and adopts it.
      await deps.db
        .update(deliveryAttempts)
        .set({ remotePath: plan.ackFolder, messageXml: xml, files, bytes: packageBytes(files, xml) })
        .where(eq(deliveryAttempts.id, attempt.id));
      await lease.confirm();
      await transport.putText(xmlName(plan), xml);
      manifestItems.push({
        messageId: attempt.messageId,
        url: `${plan.releaseKey}/${plan.releaseKey}.xml`,
        upc: plan.data.release.upc,
        isTakedown: job.action === 'takedown',
        md5: md5(xml),
      });
      written.push({ job, plan, xml, files });
      if (!isBatch) {
        await putInPlace(transport, lease, plan.folder, isStaged);
        tops.clear();
        await recordUploaded(deps.db, job, attempt.id, plan, xml, files, options);
      }
    }
    failedJob = null;
    if (isBatch && batchFolder && batchId && written.length > 0) {
      const writeTop = topFolders(batchFolder, isStaged).writeTop;
      await lease.confirm();
      // The manifest last (choreography §2.2): inside the temporary folder, then the folder is renamed.
      await transport.putText(
        `${writeTop}/BatchComplete_${batchId}.xml`,
        manifestXml({
          batchId,
          rootDirectory: batchFolder,
          sender: settings.ddexSenderPartyId,
          recipient: targetRow.dpid,
          at,
          messages: manifestItems,
        }),
      );
      await putInPlace(transport, lease, batchFolder, isStaged);
      tops.clear();
      for (const { job, plan, xml, files } of written) {
        const attempt = attempts.get(job.id);
        if (attempt) await recordUploaded(deps.db, job, attempt.id, plan, xml, files, options);
      }
    }
  } catch (error) {
    // Nothing half-written stays under a name a store reads; best effort (the connection may be gone).
    for (const top of tops) await transport.removeTree(top).catch(() => undefined);
    if (error instanceof LeaseLostError || lease.isLost) {
      deps.logger.warn({ targetId: targetRow.id, jobs: jobs.map((j) => j.id) }, new LeaseLostError().message);
      return;
    }
    // A batch is all or nothing: without its manifest the store ignores it, so every job retries.
    const message = describeTransportError(error);
    // (A release-profile claim holds one job.)
    const failing = isBatch || !failedJob ? jobs : [failedJob];
    for (const job of failing) await failJob(deps, job, attempts.get(job.id)?.id ?? null, message, options);
  } finally {
    lease.stop();
    await transport.close();
  }
}

/** Renames a staged package (or batch) into place once the lease is confirmed still ours. */
async function putInPlace(transport: Transport, lease: LeaseGuard, folder: string, isStaged: boolean) {
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
async function removeLeftovers(
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

const packageBytes = (files: DeliveredFile[], xml: string) =>
  files.reduce((sum, f) => sum + f.bytes, 0) + Buffer.byteLength(xml);

/**
 * Release profile: the previous attempt was interrupted (its worker died or stalled) after its package
 * was renamed into place but before it recorded so. Then that package is the delivery: it is adopted
 * (the old attempt counts as uploaded, this one is dropped) instead of sending a second one.
 */
async function adoptInterrupted(
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
    if (!(await markDelivered(tx, job, options))) return;
    await tx
      .update(deliveryAttempts)
      .set({ outcome: 'uploaded', error: null })
      .where(eq(deliveryAttempts.id, previous.id));
    await tx.delete(deliveryAttempts).where(eq(deliveryAttempts.id, currentAttemptId));
  });
  return true;
}

/** The job is delivered (or its takedown sent), only while the lease is still ours; false when it is not. */
async function markDelivered(
  tx: DbOrTx,
  job: DeliveryRow,
  options: Required<WorkerOptions>,
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
  return delivered.length > 0;
}

async function lastDeliveredFiles(db: DbOrTx, deliveryId: string): Promise<DeliveredFile[]> {
  const [previous] = await db
    .select({ files: deliveryAttempts.files })
    .from(deliveryAttempts)
    .where(
      and(
        eq(deliveryAttempts.deliveryId, deliveryId),
        eq(deliveryAttempts.outcome, 'uploaded'),
        eq(deliveryAttempts.action, 'new'),
      ),
    )
    .orderBy(sql`${deliveryAttempts.number} desc`)
    .limit(1);
  return previous?.files ?? [];
}

/** The attempt is uploaded and the job delivered, in one transaction and only while the lease is ours. */
async function recordUploaded(
  db: Db,
  job: DeliveryRow,
  attemptId: string,
  plan: PackagePlan,
  xml: string,
  files: DeliveredFile[],
  options: Required<WorkerOptions>,
) {
  await db.transaction(async (tx) => {
    if (!(await markDelivered(tx, job, options))) return;
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

// ------------------------------------------------------------------ acknowledgements

/** Reads new acknowledgement files of every target with deliveries waiting for one. */
export async function pollAcknowledgements(deps: WorkerDeps): Promise<number> {
  const waiting = await deps.db
    .selectDistinct({ targetId: deliveries.targetId, folder: deliveryAttempts.remotePath })
    .from(deliveries)
    .innerJoin(deliveryAttempts, eq(deliveryAttempts.deliveryId, deliveries.id))
    .where(
      and(
        inArray(deliveries.state, ['delivered', 'takedown_sent']),
        eq(deliveryAttempts.outcome, 'uploaded'),
        isNotNull(deliveryAttempts.remotePath),
      ),
    );
  let handled = 0;
  const byTarget = new Map<string, string[]>();
  for (const row of waiting) {
    if (row.folder) byTarget.set(row.targetId, [...(byTarget.get(row.targetId) ?? []), row.folder]);
  }
  for (const [targetId, folders] of byTarget) {
    const [target] = await deps.db.select().from(deliveryTargets).where(eq(deliveryTargets.id, targetId));
    if (!target) continue;
    let transport: Transport | null = null;
    try {
      transport = await openTargetTransport(deps.db, deps.config, target);
      for (const folder of [...new Set(folders)]) {
        const entries = await transport.list(`${folder}/acknowledgements`);
        for (const entry of entries) {
          if (entry.isDir || entry.name.endsWith('.part') || entry.name.startsWith('.')) continue;
          handled += await recordAck(deps, target, transport, folder, entry);
        }
      }
    } catch (error) {
      deps.logger.warn({ err: error, targetId }, 'acknowledgement poll failed');
    } finally {
      await transport?.close();
    }
  }
  if (handled > 0) await promoteReleases(deps.db);
  return handled;
}

async function recordAck(
  deps: WorkerDeps,
  target: TargetRow,
  transport: Transport,
  folder: string,
  entry: { name: string; size: number },
): Promise<number> {
  const remotePath = `${folder}/acknowledgements/${entry.name}`;
  const [seen] = await deps.db
    .select({ size: deliveryAcks.size, outcome: deliveryAcks.outcome })
    .from(deliveryAcks)
    .where(and(eq(deliveryAcks.targetId, target.id), eq(deliveryAcks.remotePath, remotePath)));
  // Each file once; a malformed (e.g. half-written) one again when its size changed.
  if (seen && !(seen.outcome === 'malformed' && seen.size !== entry.size)) return 0;
  const text = await transport.readText(remotePath, ACK_MAX_BYTES);
  const parsed = parseAck(text);
  await deps.db.transaction(async (tx) => {
    const base = {
      targetId: target.id,
      remotePath,
      fileName: entry.name,
      size: entry.size,
      text,
      receivedAt: new Date(),
    };
    const rows: (typeof deliveryAcks.$inferInsert)[] = [];
    if (parsed.kind === 'malformed') {
      rows.push({ ...base, outcome: 'malformed', errorText: parsed.reason });
    } else {
      for (const item of parsed.items) {
        // By MessageId; an ack without one belongs to the newest attempt whose folder it sits in.
        const [attempt] = item.messageId
          ? await tx.select().from(deliveryAttempts).where(eq(deliveryAttempts.messageId, item.messageId))
          : await tx
              .select()
              .from(deliveryAttempts)
              .innerJoin(deliveries, eq(deliveries.id, deliveryAttempts.deliveryId))
              .where(and(eq(deliveryAttempts.remotePath, folder), eq(deliveries.targetId, target.id)))
              .orderBy(sql`${deliveryAttempts.startedAt} desc`)
              .limit(1)
              .then((r) => r.map((x) => x.delivery_attempts));
        if (!attempt) {
          rows.push({
            ...base,
            outcome: 'unknown_message',
            messageId: item.messageId,
            status: item.status,
            errorText: item.errorText,
          });
          continue;
        }
        rows.push({
          ...base,
          outcome: item.isAccepted ? 'accepted' : 'rejected',
          messageId: attempt.messageId,
          status: item.status,
          errorText: item.errorText,
          deliveryId: attempt.deliveryId,
          attemptId: attempt.id,
        });
        await applyAck(tx, attempt, item);
      }
    }
    // One row per file: with several items in one file, the first describes it (all are applied).
    const row = rows[0];
    if (!row) return;
    await tx
      .insert(deliveryAcks)
      .values(row)
      .onConflictDoUpdate({
        target: [deliveryAcks.targetId, deliveryAcks.remotePath],
        set: { ...row, id: undefined },
      });
  });
  return 1;
}

async function applyAck(
  tx: DbOrTx,
  attempt: typeof deliveryAttempts.$inferSelect,
  item: { isAccepted: boolean; errorText: string | null; status: string },
) {
  const [delivery] = await tx
    .select()
    .from(deliveries)
    .where(eq(deliveries.id, attempt.deliveryId))
    .for('update');
  if (!delivery) return;
  // Only the ack of the latest message moves the state (an old one is recorded and shown).
  const [latest] = await tx
    .select({ id: deliveryAttempts.id })
    .from(deliveryAttempts)
    .where(eq(deliveryAttempts.deliveryId, delivery.id))
    .orderBy(sql`${deliveryAttempts.number} desc`, sql`${deliveryAttempts.startedAt} desc`)
    .limit(1);
  if (latest?.id !== attempt.id || !['delivered', 'takedown_sent'].includes(delivery.state)) return;
  const now = new Date();
  const state = !item.isAccepted
    ? 'rejected'
    : delivery.action === 'takedown'
      ? 'taken_down'
      : 'acknowledged';
  await tx
    .update(deliveries)
    .set({
      state,
      lastError: item.isAccepted
        ? null
        : `${item.status}${item.errorText && item.errorText !== item.status ? `: ${item.errorText}` : ''}`,
      acknowledgedAt: item.isAccepted ? now : delivery.acknowledgedAt,
      updatedAt: now,
      stateChangedAt: now,
    })
    .where(eq(deliveries.id, delivery.id));
  if (item.isAccepted) {
    // Stores dropped from this target's deals by an approved per-store takedown are now gone.
    const [target] = await tx.select().from(deliveryTargets).where(eq(deliveryTargets.id, delivery.targetId));
    const approved = await tx
      .select({ platformId: releaseStoreTakedowns.platformId })
      .from(releaseStoreTakedowns)
      .where(
        and(
          eq(releaseStoreTakedowns.releaseId, delivery.releaseId),
          eq(releaseStoreTakedowns.state, 'approved'),
        ),
      );
    const gone = approved
      .map((row) => row.platformId)
      .filter(
        (platform) =>
          target &&
          servesPlatform(target, platform) &&
          (delivery.action === 'takedown' || !(delivery.platforms as string[]).includes(platform)),
      );
    if (gone.length > 0) {
      await tx
        .update(releaseStoreTakedowns)
        .set({ state: 'done', doneAt: now })
        .where(
          and(
            eq(releaseStoreTakedowns.releaseId, delivery.releaseId),
            inArray(releaseStoreTakedowns.platformId, gone),
          ),
        );
    }
  }
}

/**
 * `live`: approved, release date reached (UTC), every delivery acknowledged. `taken_down`: every
 * delivery taken down. Each change writes a status event, in the same transaction: a release never
 * changes status without its event, nor the other way round.
 */
export async function promoteReleases(db: DbOrTx): Promise<void> {
  await db.transaction(async (tx) => {
    const live = await tx
      .update(releases)
      .set({ status: 'live', updatedAt: sql`now()` })
      .where(
        and(
          eq(releases.status, 'approved'),
          lte(releases.releaseDate, sql`(now() at time zone 'utc')::date`),
          sql`exists (select 1 from deliveries d where d.release_id = ${releases.id})`,
          sql`not exists (select 1 from deliveries d where d.release_id = ${releases.id} and d.state <> 'acknowledged')`,
        ),
      )
      .returning({ id: releases.id });
    const down = await tx
      .update(releases)
      .set({ status: 'taken_down', takedownRequested: false, updatedAt: sql`now()` })
      .where(
        and(
          inArray(releases.status, ['approved', 'live']),
          sql`exists (select 1 from deliveries d where d.release_id = ${releases.id})`,
          sql`not exists (select 1 from deliveries d where d.release_id = ${releases.id} and d.state <> 'taken_down')`,
        ),
      )
      .returning({ id: releases.id });
    const events = [
      ...live.map((r) => ({
        releaseId: r.id,
        status: 'live',
        note: 'Every store acknowledged and the release date has come.',
      })),
      ...down.map((r) => ({
        releaseId: r.id,
        status: 'taken_down',
        note: 'Every store confirmed the takedown.',
      })),
    ];
    if (events.length > 0) await tx.insert(releaseStatusEvents).values(events);
  });
}

// ------------------------------------------------------------------ one pass

/**
 * Delivers every due row now, then polls acknowledgements and promotes: what the jobs do, in one call,
 * for the end-to-end fixtures and tests that drive delivery step by step (the running system uses the
 * jobs of jobs.ts).
 */
export async function runDeliveryOnce(
  deps: WorkerDeps,
  options: WorkerOptions & { maxJobs?: number; pollAcks?: boolean } = {},
): Promise<{ jobs: number; acks: number }> {
  const resolved = resolveOptions(options);
  let jobs = 0;
  for (let i = 0; i < (options.maxJobs ?? 50); i++) {
    const claimed = await claimJobs(deps.db, resolved);
    if (claimed.length === 0) break;
    await processJobs(deps, claimed, resolved);
    jobs += claimed.length;
  }
  const acks = options.pollAcks === false ? 0 : await pollAcknowledgements(deps);
  await promoteReleases(deps.db);
  return { jobs, acks };
}

export function resolveOptions(options: WorkerOptions): Required<WorkerOptions> {
  return {
    retryBaseMs: options.retryBaseMs ?? 30_000,
    leaseMs: options.leaseMs ?? 5 * 60_000,
    batchSize: options.batchSize ?? 50,
    workerId: options.workerId ?? randomUUID(),
  };
}
