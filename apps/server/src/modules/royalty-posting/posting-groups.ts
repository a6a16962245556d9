/**
 * The temp table `posting_groups` that a posting and its preview both fill: each artist's money per
 * (release, track, period), which the fees, contracts and splits then read and change (record 189).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { run } from '../../lib/sql';

/** Creates the table for this transaction and fills it from `groups`, a select of its six columns. */
export async function createPostingGroups(tx: DbOrTx, groups: SQL): Promise<void> {
  await run(
    tx,
    sql`
      create temp table posting_groups (
        user_id text not null, release_id uuid, track_id uuid, period text not null,
        amount numeric not null, lines bigint not null
      ) on commit drop`,
  );
  await run(
    tx,
    sql`insert into posting_groups (user_id, release_id, track_id, period, amount, lines) ${groups}`,
  );
}
