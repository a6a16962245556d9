/**
 * Imports and postings whose run stopped (issue 43 findings 2 and 4, record 220): what the admin page says
 * about them (a retry scheduled, a run without progress, or none) and the admin's retry, which queues the
 * job again; the job resumes by phase (runImport, runPosting).
 */
import { type ImportListItem, type ImportRetry, ROYALTY_TEXTS } from '@tunedrop/shared/schemas/royalties';
import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { royaltyImports } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import { jobClient, jobDb } from '../../lib/job-client';
import { jobsOfKeys, lockWaitingJobs } from '../../lib/job-tables';
import { enqueue } from '../../lib/jobs';
import { rows } from '../../lib/sql';
import { type ImportRow, importJob, UNFINISHED_PHASES } from '../royalty-imports';
import { type PostPayload, postJob } from './jobs';

/** A run that reported no progress for this long is shown as stalled (a batch reports every few seconds). */
export const STALLED_AFTER_SECONDS = 120;

type RunState = Pick<ImportRow, 'id' | 'phase'>;

const isUnfinished = (row: Pick<RunState, 'phase'>) =>
  (UNFINISHED_PHASES as readonly string[]).includes(row.phase);
/** The queue whose job finishes the import, or null for a finished one. */
const queueOf = (row: Pick<RunState, 'phase'>) =>
  isUnfinished(row) ? importJob.name : row.phase === 'posting' ? postJob.name : null;

const iso = (value: Date | string | null) =>
  value === null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString();

/** The imports as listed, each with its retry state (record 220). */
export async function withRetries<Item extends ImportListItem>(db: DbOrTx, items: Item[]): Promise<Item[]> {
  const retries = await retriesOf(
    db,
    items.map((item) => ({ id: item.id, phase: item.progress.phase })),
  );
  return items.map((item) => ({ ...item, retry: retries.get(item.id) ?? null }));
}

/** The retry state of each unfinished import or posting of `found`, by import id (pg-boss's jobs of its key). */
async function retriesOf(db: DbOrTx, found: RunState[]): Promise<Map<string, ImportRetry>> {
  const running = found.filter((row) => queueOf(row) !== null);
  const result = new Map<string, ImportRetry>();
  if (running.length === 0) return result;
  const jobs = await jobsOfKeys(
    db,
    running.map((row) => ({ key: row.id, queue: queueOf(row) ?? '' })),
  );
  const ages = await rows<{ id: string; progressAge: number | string | null }>(
    db,
    sql`select id, extract(epoch from now() - progress_at) as progress_age from royalty_imports
         where id in (${sql.join(
           running.map((row) => sql`${row.id}::uuid`),
           sql`, `,
         )})`,
  );
  for (const row of running) {
    const own = jobs.filter((job) => job.key === row.id);
    const progressAge = ages.find((age) => age.id === row.id)?.progressAge ?? null;
    const waiting = own.find((job) => job.state === 'retry' || (job.state === 'created' && !job.isDue));
    const active = own.find((job) => job.state === 'active');
    if (waiting) result.set(row.id, { state: 'scheduled', at: iso(waiting.startAfter) });
    else if (active && Number(progressAge ?? 0) > STALLED_AFTER_SECONDS)
      result.set(row.id, { state: 'stalled', at: iso(active.leaseEnds) });
    else if (own.length === 0) result.set(row.id, { state: 'none', at: null });
  }
  return result;
}

/**
 * The admin's retry of an import or posting that stopped: queues its job again (the job resumes by phase;
 * a run still holding the lease keeps it, and the queued one finds the work done or goes on after it).
 * 409 for an import that is finished.
 */
export async function retryImport(db: Db, importId: string, admin: PostPayload['admin']): Promise<void> {
  const [row] = await db
    .select({ id: royaltyImports.id, status: royaltyImports.status, phase: royaltyImports.phase })
    .from(royaltyImports)
    .where(eq(royaltyImports.id, importId));
  if (!row) throw notFound('Import not found');
  if (
    row.status === 'posted' ||
    (row.status !== 'staging' && !isUnfinished(row) && row.phase !== 'posting')
  ) {
    throw new AppError('not_retryable', ROYALTY_TEXTS.notRetryable, 409);
  }
  const payload = { importId, admin };
  await db.transaction(async (tx) => {
    const queue = isUnfinished(row) ? importJob.name : postJob.name;
    // A job already waiting (pg-boss's backoff) gives way to one that runs now (pg-boss's cancel, then
    // send): never a second waiting job of the key. pg-boss's `retry` revives only a failed job (record 257).
    const waiting = await lockWaitingJobs(tx, queue, importId);
    if (waiting.length > 0) await jobClient.cancel(queue, waiting, { db: jobDb(tx) });
    if (isUnfinished(row)) await enqueue(tx, importJob, { importId }, { singletonKey: importId });
    else await enqueue(tx, postJob, payload, { singletonKey: importId });
  });
}
