/**
 * The delivery worker (records 100, 102, 154, 156), run by the `delivery.*` jobs (jobs.ts): it uploads
 * the rows a claim holds (state.ts) as one ERN package each, or as one batch for a batch target
 * (packaging.ts), and records the outcome. Any number of workers in any number of server instances never
 * deliver one twice; a job whose worker died is taken over once its lease ran out.
 */
import { eq, sql } from 'drizzle-orm';
import { type DeliveredFile, deliveryAttempts, deliveryTargets } from '../../db/schema';
import { traceCalls } from '../../lib/telemetry';
import {
  manifestXml,
  md5,
  newMessageId,
  type PackagePlan,
  packageXml,
  planPackage,
  stamp,
  topFolders,
  xmlName,
} from '../ddex';
import { pollAcknowledgements, promoteReleases } from './acknowledgements';
import { readSettings } from './codes';
import { openTargetTransport } from './connect';
import { LeaseLostError, leaseGuard } from './lease';
import { putInPlace, removeLeftovers, resourcesToSend, uploadResources } from './packaging';
import {
  adoptInterrupted,
  claimJobs,
  type DeliveryRow,
  failJob,
  lastDeliveredFiles,
  leaseOf,
  packageBytes,
  recordUploaded,
  resolveOptions,
  type WorkerDeps,
  type WorkerOptions,
} from './state';
import { describeTransportError, type Transport } from './transport';
import { markContentIdSent } from './youtube';

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
    // A client span per transport call when traces are on (record 225).
    transport = traceCalls('transport', await openTargetTransport(deps.db, deps.config, targetRow), {
      'tunedrop.target.id': targetRow.id,
    });
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
        withResources: await resourcesToSend(deps.db, job),
        isStaged,
      });
      const { writeTop } = topFolders(plan.folder, isStaged);
      if (!isBatch && (await adoptInterrupted(deps.db, transport, job, attempt.id, plan.releaseKey, options)))
        continue;
      if (!isBatch && isStaged) await removeLeftovers(deps.db, transport, [job], () => plan.releaseKey);
      tops.add(writeTop);
      // Updates and takedowns carry no binaries (choreography §5); their File elements reuse the
      // hashes of the last package that did.
      // An update after a post-release edit resends the changed files only (record 331).
      let files: DeliveredFile[] = [];
      if (job.action === 'new') {
        files = await uploadResources(deps.storage, transport, plan, lease);
      } else {
        await transport.ensureDir(plan.writeFolder);
        const sent = await uploadResources(deps.storage, transport, plan, lease);
        const sentKeys = new Set(sent.map((file) => file.key));
        const earlier = await lastDeliveredFiles(deps.db, job.id);
        files = [...earlier.filter((file) => !sentKeys.has(file.key)), ...sent];
      }
      const xml = packageXml(plan, {
        sender: { partyId: settings.ddexSenderPartyId, name: settings.ddexSenderName },
        target: targetRow,
        platforms: job.action === 'takedown' ? [] : job.platforms,
        isTakedown: job.action === 'takedown',
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
        if (targetRow.profile === 'youtube')
          await markContentIdSent(deps.db, plan, job.action === 'takedown');
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
  await promoteReleases(deps.db, deps.config.appUrl);
  return { jobs, acks };
}
