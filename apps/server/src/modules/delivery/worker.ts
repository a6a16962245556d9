/**
 * The delivery worker (records 100, 102). Jobs are rows of `deliveries`, claimed with
 * `FOR UPDATE SKIP LOCKED` and a lease (`lease_until`, renewed while uploading), so any number of
 * workers in any number of server instances never deliver one twice, and a job whose worker died is
 * taken over once its lease ran out (its attempt is closed as interrupted and the upload restarts in a
 * new folder). Failures back off exponentially; after `max_attempts` the job is `failed` and admins
 * are mailed. Acknowledgement files are polled per outstanding folder; every file is recorded once
 * (again if it grew, for a half-written one) and never stops the loop.
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
import { startPollLoop } from '../../lib/poll-loop';
import { parseAck } from './acks';
import { readSettings } from './codes';
import {
  manifestXml,
  md5,
  newMessageId,
  type PackagePlan,
  packageXml,
  planPackage,
  stamp,
  uploadResources,
  xmlName,
} from './package';
import { openTarget, servesPlatform, type TargetRow } from './targets';
import { describeTransportError, openTransport, type Transport } from './transport';

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

/** Claims due jobs: one, or for a batch target up to `batchSize` of that target. */
export async function claimJobs(db: Db, options: Required<WorkerOptions>): Promise<DeliveryRow[]> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const due = or(
      and(inArray(deliveries.state, ['queued', 'takedown_queued']), lte(deliveries.nextAttemptAt, now)),
      and(eq(deliveries.state, 'uploading'), lte(deliveries.leaseUntil, now)),
    );
    const [first] = await tx
      .select({ delivery: deliveries, profile: deliveryTargets.profile })
      .from(deliveries)
      .innerJoin(deliveryTargets, eq(deliveryTargets.id, deliveries.targetId))
      .where(and(due, eq(deliveryTargets.enabled, true)))
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
    const leaseUntil = new Date(now.getTime() + options.leaseMs);
    const claimed: DeliveryRow[] = [];
    for (const row of rows) {
      if (row.state === 'uploading') {
        // Its worker died mid-upload: close the dangling attempt; the package restarts in a new folder.
        await tx
          .update(deliveryAttempts)
          .set({
            outcome: 'failed',
            error: 'Interrupted (the worker stopped mid-upload); restarted.',
            finishedAt: now,
          })
          .where(and(eq(deliveryAttempts.deliveryId, row.id), eq(deliveryAttempts.outcome, 'running')));
      }
      const [updated] = await tx
        .update(deliveries)
        .set({
          state: 'uploading',
          leaseUntil,
          leaseOwner: options.workerId,
          attempts: row.attempts + 1,
          updatedAt: now,
          stateChangedAt: now,
        })
        .where(eq(deliveries.id, row.id))
        .returning();
      if (updated) claimed.push(updated);
    }
    return claimed;
  });
}

async function renewLease(db: DbOrTx, ids: string[], options: Required<WorkerOptions>) {
  await db
    .update(deliveries)
    .set({ leaseUntil: new Date(Date.now() + options.leaseMs) })
    .where(and(inArray(deliveries.id, ids), eq(deliveries.leaseOwner, options.workerId)));
}

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
  const now = new Date();
  const isGivenUp = job.attempts >= job.maxAttempts;
  await deps.db.transaction(async (tx) => {
    if (attemptId) {
      await tx
        .update(deliveryAttempts)
        .set({ outcome: 'failed', error: message, finishedAt: now })
        .where(eq(deliveryAttempts.id, attemptId));
    }
    await tx
      .update(deliveries)
      .set({
        state: isGivenUp ? 'failed' : job.action === 'takedown' ? 'takedown_queued' : 'queued',
        lastError: message,
        leaseUntil: null,
        leaseOwner: null,
        nextAttemptAt: new Date(now.getTime() + options.retryBaseMs * 2 ** Math.max(0, job.attempts - 1)),
        updatedAt: now,
        stateChangedAt: now,
      })
      .where(and(eq(deliveries.id, job.id), eq(deliveries.leaseOwner, options.workerId)));
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
  });
  if (isGivenUp) deps.wakeMail();
}

/** Uploads the claimed jobs (one release, or one batch for a batch target). */
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
    transport = await openTransport(openTarget(deps.config, targetRow).secretValue, deps.config);
  } catch (error) {
    const message = describeTransportError(error);
    for (const job of jobs) await failJob(deps, job, attempts.get(job.id)?.id ?? null, message, options);
    return;
  }
  const manifestItems: Parameters<typeof manifestXml>[0]['messages'] = [];
  const done: { job: DeliveryRow; plan: PackagePlan }[] = [];
  try {
    for (const job of jobs) {
      const attempt = attempts.get(job.id);
      if (!attempt) continue;
      try {
        const plan = await planPackage(deps.db, job.releaseId, {
          ...(batchFolder ? { batchFolder } : {}),
          at,
          withResources: job.action === 'new',
        });
        // Updates and takedowns carry no binaries (choreography §5); their File elements reuse the
        // hashes of the last package that did.
        let files: DeliveredFile[] = [];
        if (job.action === 'new') {
          files = await uploadResources(deps.storage, transport, plan, () =>
            renewLease(deps.db, [job.id], options),
          );
        } else {
          const [previous] = await deps.db
            .select({ files: deliveryAttempts.files })
            .from(deliveryAttempts)
            .where(
              and(
                eq(deliveryAttempts.deliveryId, job.id),
                eq(deliveryAttempts.outcome, 'uploaded'),
                eq(deliveryAttempts.action, 'new'),
              ),
            )
            .orderBy(sql`${deliveryAttempts.number} desc`)
            .limit(1);
          files = previous?.files ?? [];
          await transport.ensureDir(plan.folder);
        }
        const xml = packageXml(plan, {
          settings,
          target: targetRow,
          platforms: job.action === 'takedown' ? [] : job.platforms,
          files,
          messageId: attempt.messageId,
          at,
        });
        await transport.putText(xmlName(plan), xml);
        const bytes = files.reduce((sum, f) => sum + f.bytes, 0) + Buffer.byteLength(xml);
        await deps.db
          .update(deliveryAttempts)
          .set({
            remotePath: plan.ackFolder,
            messageXml: xml,
            files,
            bytes,
            ...(isBatch ? {} : { outcome: 'uploaded', finishedAt: new Date() }),
          })
          .where(eq(deliveryAttempts.id, attempt.id));
        manifestItems.push({
          messageId: attempt.messageId,
          url: `${plan.releaseKey}/${plan.releaseKey}.xml`,
          upc: plan.data.release.upc,
          isTakedown: job.action === 'takedown',
          md5: md5(xml),
        });
        if (!isBatch) await markDelivered(deps.db, job, options);
        else done.push({ job, plan });
      } catch (error) {
        await failJob(deps, job, attempt.id, describeTransportError(error), options);
        if (isBatch) throw error;
      }
    }
    if (isBatch && batchFolder && batchId && done.length > 0) {
      await transport.putText(
        `${batchFolder}/BatchComplete_${batchId}.xml`,
        manifestXml({
          batchId,
          rootDirectory: batchFolder,
          sender: settings.ddexSenderPartyId,
          recipient: targetRow.dpid,
          at,
          messages: manifestItems,
        }),
      );
      for (const { job } of done) {
        const attempt = attempts.get(job.id);
        if (attempt) {
          await deps.db
            .update(deliveryAttempts)
            .set({ outcome: 'uploaded', finishedAt: new Date() })
            .where(eq(deliveryAttempts.id, attempt.id));
        }
        await markDelivered(deps.db, job, options);
      }
    }
  } catch (error) {
    // A batch is all or nothing: without its manifest the store ignores it, so every job retries.
    const message = describeTransportError(error);
    for (const { job } of done) await failJob(deps, job, attempts.get(job.id)?.id ?? null, message, options);
    for (const job of jobs) {
      if (!done.some((d) => d.job.id === job.id)) {
        const [row] = await deps.db.select().from(deliveries).where(eq(deliveries.id, job.id));
        if (row?.state === 'uploading')
          await failJob(deps, job, attempts.get(job.id)?.id ?? null, message, options);
      }
    }
  } finally {
    await transport.close();
  }
}

async function markDelivered(db: DbOrTx, job: DeliveryRow, options: Required<WorkerOptions>) {
  const now = new Date();
  await db
    .update(deliveries)
    .set({
      state: job.action === 'takedown' ? 'takedown_sent' : 'delivered',
      deliveredAt: now,
      lastError: null,
      leaseUntil: null,
      leaseOwner: null,
      updatedAt: now,
      stateChangedAt: now,
    })
    .where(and(eq(deliveries.id, job.id), eq(deliveries.leaseOwner, options.workerId)));
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
      transport = await openTransport(openTarget(deps.config, target).secretValue, deps.config);
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
 * delivery taken down. Each change writes a status event.
 */
export async function promoteReleases(db: DbOrTx): Promise<void> {
  const live = await db
    .update(releases)
    .set({ status: 'live', updatedAt: new Date() })
    .where(
      and(
        eq(releases.status, 'approved'),
        lte(releases.releaseDate, sql`(now() at time zone 'utc')::date`),
        sql`exists (select 1 from deliveries d where d.release_id = ${releases.id})`,
        sql`not exists (select 1 from deliveries d where d.release_id = ${releases.id} and d.state <> 'acknowledged')`,
      ),
    )
    .returning({ id: releases.id });
  const down = await db
    .update(releases)
    .set({ status: 'taken_down', takedownRequested: false, updatedAt: new Date() })
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
  if (events.length > 0) await db.insert(releaseStatusEvents).values(events);
}

// ------------------------------------------------------------------ the loop

/** One pass: deliver due jobs (up to `maxJobs` claims), then poll acknowledgements and promote. */
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

/** Polls until stopped: jobs every `intervalMs`, acknowledgements every `ackIntervalMs`. */
export function startDeliveryWorker(
  deps: WorkerDeps,
  options: WorkerOptions & { intervalMs?: number; ackIntervalMs?: number } = {},
) {
  const resolved = resolveOptions(options);
  let lastAckPoll = 0;
  return startPollLoop(
    () => {
      const pollAcks = Date.now() - lastAckPoll >= (options.ackIntervalMs ?? 15_000);
      if (pollAcks) lastAckPoll = Date.now();
      return runDeliveryOnce(deps, { ...resolved, pollAcks });
    },
    {
      intervalMs: options.intervalMs ?? 2000,
      onError: (error) => deps.logger.error({ err: error }, 'delivery worker pass failed'),
    },
  );
}
