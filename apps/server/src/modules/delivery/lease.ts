/**
 * The lease a worker holds on the delivery rows it claimed (record 154). Lease times are database
 * time (`now()`), never an instance's clock; a renewal matches owner and lease id, so a worker that
 * stalled until another took the job over finds out at its next check and stops writing. Kept apart
 * from the claim loop so it carries over when jobs move onto pg-boss (issue 24).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { deliveries } from '../../db/schema';

/** Identifies one claim: the rows, the worker, and the id the claim gave them. */
export type Lease = { ids: string[]; owner: string; leaseId: string; leaseMs: number };

export class LeaseLostError extends Error {
  constructor() {
    super('The delivery lease was lost (another worker took the job over); stopped before writing more.');
    this.name = 'LeaseLostError';
  }
}

/** `now() + ms` on the database's clock. */
export const dbNowPlus = (ms: number) => sql`now() + (${Math.round(ms)}::bigint * interval '1 millisecond')`;

/** The rows of this lease, still held (same owner, same claim). */
export const heldBy = (lease: Pick<Lease, 'owner' | 'leaseId'>) =>
  and(eq(deliveries.leaseOwner, lease.owner), eq(deliveries.leaseId, lease.leaseId));

/** Extends the lease of every row; false when any of them is no longer this claim's. */
export async function renewLease(db: DbOrTx, lease: Lease): Promise<boolean> {
  const renewed = await db
    .update(deliveries)
    .set({ leaseUntil: dbNowPlus(lease.leaseMs) })
    .where(and(inArray(deliveries.id, lease.ids), heldBy(lease), eq(deliveries.state, 'uploading')))
    .returning({ id: deliveries.id });
  return renewed.length === lease.ids.length;
}

export type LeaseGuard = {
  /**
   * Call before writing more. Renews once a third of the lease has passed since the last renewal (by
   * this process's monotonic clock, which keeps running while the process is stopped); throws
   * LeaseLostError once the lease is gone.
   */
  check(): Promise<void>;
  /** Renews now (one round trip): call right before a step that makes the package visible. */
  confirm(): Promise<void>;
  readonly isLost: boolean;
  stop(): void;
};

export function leaseGuard(db: DbOrTx, lease: Lease): LeaseGuard {
  let renewedAt = performance.now();
  let lost: LeaseLostError | null = null;
  let inFlight: Promise<void> | null = null;
  const renew = () => {
    inFlight ??= (async () => {
      const started = performance.now();
      try {
        if (!(await renewLease(db, lease))) lost = new LeaseLostError();
        else renewedAt = started;
      } finally {
        inFlight = null;
      }
    })();
    return inFlight;
  };
  const guard: LeaseGuard = {
    async check() {
      if (lost) throw lost;
      if (performance.now() - renewedAt >= lease.leaseMs / 3) await renew();
      if (lost) throw lost;
    },
    async confirm() {
      if (lost) throw lost;
      // A renewal already under way may have started before the caller's step; wait, then renew afresh.
      await inFlight;
      await renew();
      if (lost) throw lost;
    },
    get isLost() {
      return lost !== null;
    },
    stop() {
      clearInterval(timer);
    },
  };
  // Keeps the lease while a step waits without writing (a slow storage read); the checks guard the writes.
  const timer = setInterval(() => void guard.check().catch(() => undefined), lease.leaseMs / 3);
  timer.unref();
  return guard;
}
