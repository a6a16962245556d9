/**
 * The one file that reads or writes pg-boss's tables directly (record 257). Everything else goes through
 * pg-boss's public API (`send`, `complete`, `fail`, `cancel` with `{ db }`, lib/job-client.ts). These are
 * what pg-boss 10's API cannot do:
 * - `fetchNext`: its `fetch` takes the oldest waiting job even when that job's `singleton`/`stately` key
 *   already runs, then fails on the unique index and returns nothing, for the whole queue, until the run
 *   ends (issue 43: a killed worker stopped every delivery for 12.5 minutes; record 217). Ours skips it.
 * - `lockRun`: `complete` and `fail` act on a job id; a run must end only its own start (`started_on`),
 *   never a later retry of the same job that another worker took after a takeover (record 217).
 * - `fetchKeyed`: a job run inline by the process that enqueued it (the CLI waiting for its import, record
 *   276) is taken by its singleton key, which pg-boss's fetch cannot name.
 * - `giveBack`, `dueNow`: a job fetched as a drain began goes back without using a retry; a run whose
 *   worker was lost is retried at once rather than after its backoff. pg-boss has no call for either.
 * - `staleRuns`: the takeover's search (runs with no heartbeat in `job_runs`, or past expiry).
 * - `queueCounts`, `queueAges`, `jobsOfKeys`, `lockWaitingJobs`: reads by state, age and singleton key
 *   (for /metrics and the admin's import retries); pg-boss reads jobs only by id.
 * job-tables.test.ts fails when pg-boss's `job` table or its states change shape: check this file then.
 */
import { type SQL, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { DbOrTx } from '../db/client';
import { SCHEMA } from './job-client';
import { rows } from './sql';

const JOB = sql.raw(`${SCHEMA}.job`);

export type FetchedJob = { id: string; data: unknown; retryCount: number; startedOnText: string };

/**
 * pg-boss 10's fetch of one job (oldest of the highest priority whose time has come, skipping locked
 * rows; a retry counts one more), except that a `singleton`/`stately` job whose key runs is skipped.
 * The run's start comes back as exact text: it names the run in `lockRun`, `giveBack` and `job_runs`.
 */
export function fetchNext(db: DbOrTx, name: string): Promise<FetchedJob | undefined> {
  return claim(
    db,
    name,
    sql`select w.id from ${JOB} w
         where w.name = ${name} and w.state < 'active' and w.start_after < now()
           and not (w.policy in ('singleton', 'stately') and exists (
             select 1 from ${JOB} a
              where a.name = ${name} and a.state = 'active'
                and coalesce(a.singleton_key, '') = coalesce(w.singleton_key, '')))
         order by w.priority desc, w.created_on, w.id`,
  );
}

/**
 * Takes the waiting job of `key` in `name` as `fetchNext` would (its run counted the same way), for a
 * process that runs it inline; undefined when there is none waiting or its key already runs (a worker
 * took it).
 */
export function fetchKeyed(db: DbOrTx, name: string, key: string): Promise<FetchedJob | undefined> {
  return claim(
    db,
    name,
    sql`select w.id from ${JOB} w
         where w.name = ${name} and w.singleton_key = ${key} and w.state < 'active' and w.start_after <= now()
           and not exists (select 1 from ${JOB} a
                            where a.name = ${name} and a.state = 'active' and a.singleton_key = ${key})
         order by w.created_on, w.id`,
  );
}

/**
 * Starts the first job of `name` that `candidates` (a select of job ids, in the order to take them) names
 * and no one else has locked, as pg-boss's fetch starts one: active from now, a retry counted once more.
 */
async function claim(db: DbOrTx, name: string, candidates: SQL): Promise<FetchedJob | undefined> {
  const [job] = await rows<FetchedJob>(
    db,
    sql`with next as (${candidates} limit 1 for update skip locked)
        update ${JOB} j set state = 'active', started_on = now(),
          retry_count = case when j.started_on is not null then j.retry_count + 1 else j.retry_count end
          from next
         where j.name = ${name} and j.id = next.id
        returning j.id, j.data, j.retry_count, j.started_on::text as started_on_text`,
  );
  return job;
}

/**
 * Locks the job while it is still this run (active, started at `startedOn`) and returns its data; undefined
 * when the run already ended or the job was retried meanwhile. Call in the transaction that then
 * completes or fails it.
 */
export async function lockRun(
  tx: DbOrTx,
  name: string,
  id: string,
  startedOn: string,
): Promise<{ data: unknown } | undefined> {
  const [job] = await rows<{ data: unknown }>(
    tx,
    sql`select data from ${JOB}
         where name = ${name} and id = ${id}::uuid and state = 'active' and started_on = ${startedOn}::timestamptz
         for update`,
  );
  return job;
}

/** Puts a run back to waiting, due now, without counting a retry (fetched as the drain began). */
export async function giveBack(db: DbOrTx, id: string, startedOn: string): Promise<void> {
  await rows(
    db,
    sql`update ${JOB} set state = 'retry', start_after = now()
         where id = ${id}::uuid and state = 'active' and started_on = ${startedOn}::timestamptz
        returning id`,
  );
}

/** Makes a job waiting for its retry due now (a lost worker's run is retried at once, record 217). */
export async function dueNow(tx: DbOrTx, id: string): Promise<void> {
  await rows(
    tx,
    sql`update ${JOB} set start_after = now() where id = ${id}::uuid and state = 'retry' returning id`,
  );
}

export type StaleRun = { name: string; id: string; startedOn: string; isExpired: boolean };

/**
 * Active runs of `names` past their definition's expiry (pg-boss's own is `backstopSeconds` later), or
 * started more than `staleSeconds` ago without a fresh heartbeat in `job_runs`.
 */
export async function staleRuns(
  db: DbOrTx,
  names: readonly string[],
  staleSeconds: number,
  backstopSeconds: number,
): Promise<StaleRun[]> {
  if (names.length === 0) return [];
  return rows<StaleRun>(
    db,
    sql`select j.name, j.id, j.started_on::text as started_on,
          j.started_on + j.expire_in - make_interval(secs => ${backstopSeconds}) < now() as is_expired
        from ${JOB} j
        where j.state = 'active' and j.name in (${sql.join(
          names.map((name) => sql`${name}`),
          sql`, `,
        )})
          and (j.started_on + j.expire_in - make_interval(secs => ${backstopSeconds}) < now()
            or (j.started_on < now() - make_interval(secs => ${staleSeconds})
              and not exists (select 1 from job_runs r where r.job_id = j.id and r.started_on = j.started_on
                and r.beat_at > now() - make_interval(secs => ${staleSeconds}))))
        limit 100`,
  );
}

/** Jobs per queue and state, for /metrics (on pg-boss's own connection). */
export async function queueCounts(db: PgBoss.Db): Promise<{ queue: string; state: string; count: number }[]> {
  const result = await db.executeSql(
    `select name as queue, state, count(*)::int as count from ${SCHEMA}.job group by name, state order by name, state`,
    [],
  );
  return (result.rows as { queue: string; state: string; count: number | string }[]).map((row) => ({
    ...row,
    count: Number(row.count),
  }));
}

/**
 * Per queue: seconds since the oldest due job that does not run became due, and since the oldest running
 * job started (for /metrics, on pg-boss's own connection).
 */
export async function queueAges(db: PgBoss.Db): Promise<Map<string, { waiting: number; active: number }>> {
  const result = await db.executeSql(
    `select name as queue,
        coalesce(extract(epoch from now() - min(start_after) filter (where state < 'active' and start_after <= now())), 0)::float8 as waiting,
        coalesce(extract(epoch from now() - min(started_on) filter (where state = 'active')), 0)::float8 as active
      from ${SCHEMA}.job where state <= 'active' group by name`,
    [],
  );
  return new Map(
    (result.rows as { queue: string; waiting: number | string; active: number | string }[]).map((row) => [
      row.queue,
      { waiting: Number(row.waiting), active: Number(row.active) },
    ]),
  );
}

export type KeyedJob = {
  key: string;
  queue: string;
  state: string;
  startAfter: Date | string;
  isDue: boolean;
  /** When a running job's expiry fails it (its start plus its expiry). */
  leaseEnds: Date | string | null;
};

/** The waiting and running jobs of each queue and singleton key. */
export async function jobsOfKeys(
  db: DbOrTx,
  wanted: readonly { queue: string; key: string }[],
): Promise<KeyedJob[]> {
  if (wanted.length === 0) return [];
  return rows<KeyedJob>(
    db,
    sql`select w.key, w.queue, j.state, j.start_after, j.start_after <= now() as is_due,
               j.started_on + j.expire_in as lease_ends
          from jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) as w(key text, queue text)
          join ${JOB} j on j.name = w.queue and j.singleton_key = w.key
         where j.state in ('created', 'retry', 'active')`,
  );
}

/**
 * Locks and returns the ids of the jobs of `key` waiting in `queue` (created or retry): no worker fetches
 * them while the caller's transaction decides (the admin's retry cancels them and sends a new one).
 */
export async function lockWaitingJobs(tx: DbOrTx, queue: string, key: string): Promise<string[]> {
  const found = await rows<{ id: string }>(
    tx,
    sql`select id from ${JOB}
         where name = ${queue} and singleton_key = ${key} and state in ('created', 'retry')
         for update`,
  );
  return found.map((job) => job.id);
}
