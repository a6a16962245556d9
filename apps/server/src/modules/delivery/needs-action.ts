/**
 * "Needs action" (issue 26 finding 4, record 194): an approved or live release one of whose targets
 * rejected its latest acknowledged delivery. Not a status of its own: an overlay computed here from the
 * acknowledgements, so it is set by a rejection and cleared by the next accepted acknowledgement of that
 * delivery (after an admin retry or a corrected re-delivery), with nothing to keep in step.
 */
import type { StoreRejection } from '@tunedrop/shared/schemas/delivery';
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { deliveries, deliveryAcks, deliveryAttempts, deliveryTargets } from '../../db/schema';
import { firstRow } from '../../lib/sql';

/**
 * The store rejections standing on a release, oldest first, as a JSON array (null when none): per
 * delivery (not a takedown), the newest acknowledgement of its latest answered attempt, when it is a
 * rejection. `releaseId` is the outer query's release id column or a value.
 */
export function storeRejectionsSql(releaseId: AnyPgColumn | SQL | string): SQL<StoreRejection[] | null> {
  return sql<StoreRejection[] | null>`(select json_agg(json_build_object(
      'target', t.name,
      'reason', case when a.error_text is null or a.error_text = a.status then coalesce(a.status, 'Rejected')
                     else coalesce(a.status || ': ', '') || a.error_text end,
      'at', a.received_at) order by a.received_at)
    from ${deliveries} d
    join ${deliveryTargets} t on t.id = d.target_id
    join lateral (
      select k.outcome, k.status, k.error_text, k.received_at
        from ${deliveryAttempts} at
        join ${deliveryAcks} k on k.attempt_id = at.id
       where at.delivery_id = d.id and k.outcome in ('accepted', 'rejected')
       order by at.number desc, k.received_at desc
       limit 1) a on a.outcome = 'rejected'
   where d.release_id = ${releaseId} and d.action <> 'takedown')`;
}

/** Normalizes the JSON of storeRejectionsSql (timestamps as ISO strings on both databases). */
export function storeRejectionsOf(value: StoreRejection[] | string | null | undefined): StoreRejection[] {
  const list: StoreRejection[] = typeof value === 'string' ? JSON.parse(value) : (value ?? []);
  return list.map((r) => ({ target: r.target, reason: r.reason, at: new Date(r.at).toISOString() }));
}

/** One release's standing store rejections (empty: it needs no action). */
export async function releaseStoreRejections(db: DbOrTx, releaseId: string): Promise<StoreRejection[]> {
  const row = await firstRow<{ rejections: StoreRejection[] | string | null }>(
    db,
    sql`select ${storeRejectionsSql(releaseId)} as rejections`,
  );
  return storeRejectionsOf(row?.rejections);
}
