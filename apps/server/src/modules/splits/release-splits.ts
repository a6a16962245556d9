/**
 * A release's splits as its owner (or an admin) sees them: the versions, payees, expenses and what was recouped.
 */
import { hasRole } from '@tunedrop/shared';
import type {
  PayeeStatus,
  ReleaseSplits,
  SplitExpenseView,
  SplitVersionView,
} from '@tunedrop/shared/schemas/splits';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { releaseExpenses, releases } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { rows } from '../../lib/sql';

export type OwnedRelease = { id: string; title: string; userId: string };

/** The release when the viewer owns it or is an admin; 404 otherwise (another artist learns nothing). */
export async function ownedRelease(db: DbOrTx, releaseId: string, viewer: Viewer, lock = false) {
  const query = db
    .select({ id: releases.id, title: releases.title, userId: releases.userId, status: releases.status })
    .from(releases)
    .where(eq(releases.id, releaseId));
  const [release] = lock ? await query.for('update') : await query;
  if (!release || release.status === 'deleted') throw notFound('Release not found');
  if (release.userId !== viewer.account.id && !hasRole(viewer.roles, 'admin'))
    throw notFound('Release not found');
  return release as OwnedRelease;
}

export async function getReleaseSplits(
  db: DbOrTx,
  releaseId: string,
  viewer: Viewer,
): Promise<ReleaseSplits> {
  const release = await ownedRelease(db, releaseId, viewer);
  return readReleaseSplits(db, release, viewer);
}

/** Whether the viewer changes another account's split (an admin): a save then needs a reason (record 229). */
export const isStaffChange = (release: OwnedRelease, viewer: Viewer) => release.userId !== viewer.account.id;

export async function readReleaseSplits(
  db: DbOrTx,
  release: OwnedRelease,
  viewer: Viewer,
): Promise<ReleaseSplits> {
  const [owner] = await rows<{ email: string }>(
    db,
    sql`select email from "user" where id = ${release.userId}`,
  );
  const trackRows = await rows<{ id: string; position: number; title: string }>(
    db,
    sql`select id, position, title from tracks where release_id = ${release.id} order by position`,
  );
  const versions = await rows<{
    id: string;
    trackId: string | null;
    trackTitle: string | null;
    version: number;
    ownerPercent: string;
    createdAt: Date | string;
    createdByEmail: string | null;
    shares: { payeeId: string; email: string; status: PayeeStatus; percent: string }[] | null;
  }>(
    db,
    sql`
      select v.id, v.track_id, t.title as track_title, v.version, v.owner_percent::text as owner_percent,
             v.created_at, u.email as created_by_email,
             (select json_agg(json_build_object('payeeId', p.id, 'email', p.email, 'status', p.status,
                                                'percent', s.percent::text) order by s.percent desc, p.email)
                from split_shares s join split_payees p on p.id = s.payee_id
               where s.version_id = v.id) as shares
        from split_versions v
        left join tracks t on t.id = v.track_id
        left join "user" u on u.id = v.created_by
       where v.release_id = ${release.id}
       order by v.created_at desc, v.version desc`,
  );
  const history: SplitVersionView[] = versions.map((row) => ({
    id: row.id,
    trackId: row.trackId,
    trackTitle: row.trackTitle,
    version: Number(row.version),
    ownerPercent: row.ownerPercent,
    shares: row.shares ?? [],
    createdAt: new Date(row.createdAt).toISOString(),
    createdByEmail: row.createdByEmail,
  }));
  const seen = new Set<string>();
  const current = history
    .filter((version) => {
      const key = version.trackId ?? '';
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => (a.trackId === null ? -1 : b.trackId === null ? 1 : 0));
  const payees = await rows<{
    id: string;
    email: string;
    status: PayeeStatus;
    createdAt: Date | string;
    acceptedAt: Date | string | null;
    withdrawnAt: Date | string | null;
    held: string;
    paid: string;
  }>(
    db,
    sql`
      select p.id, p.email, p.status, p.created_at, p.accepted_at, p.withdrawn_at,
             coalesce((select sum(s.cents) from split_settlements s
                        where s.payee_id = p.id and s.held and s.released_to is null), 0)::text as held,
             coalesce((select sum(s.cents) from split_settlements s
                        where s.payee_id = p.id and (not s.held or s.released_to = 'payee')), 0)::text as paid
        from split_payees p
       where p.release_id = ${release.id}
       order by p.created_at, p.email`,
  );
  const expenses = await db
    .select()
    .from(releaseExpenses)
    .where(eq(releaseExpenses.releaseId, release.id))
    .orderBy(releaseExpenses.spentOn, releaseExpenses.createdAt);
  const [recouped] = await rows<{ cents: string }>(
    db,
    sql`select coalesce(sum(cents), 0)::text as cents from split_recoupments where release_id = ${release.id}`,
  );
  const expensesCents = expenses.reduce((sum, row) => sum + row.amountCents, 0);
  const recoupedCents = Number(recouped?.cents ?? 0);
  const payeeViews = payees.map((row) => ({
    id: row.id,
    email: row.email,
    status: row.status,
    invitedAt: new Date(row.createdAt).toISOString(),
    acceptedAt: row.acceptedAt ? new Date(row.acceptedAt).toISOString() : null,
    withdrawnAt: row.withdrawnAt ? new Date(row.withdrawnAt).toISOString() : null,
    heldCents: Number(row.held),
    paidCents: Number(row.paid),
  }));
  return {
    releaseId: release.id,
    releaseTitle: release.title,
    ownerEmail: owner?.email ?? '',
    isReasonRequired: isStaffChange(release, viewer),
    tracks: trackRows.map((row) => ({ id: row.id, position: Number(row.position), title: row.title })),
    current,
    history,
    payees: payeeViews,
    expenses: expenses.map((row) => ({
      id: row.id,
      amountCents: row.amountCents,
      description: row.description,
      spentOn: row.spentOn,
      createdAt: row.createdAt.toISOString(),
    })),
    recoupment: { expensesCents, recoupedCents, remainingCents: expensesCents - recoupedCents },
    heldCents: payeeViews.reduce((sum, payee) => sum + payee.heldCents, 0),
  };
}

export async function releaseExpenseViews(db: DbOrTx, releaseId: string): Promise<SplitExpenseView[]> {
  const found = await db
    .select()
    .from(releaseExpenses)
    .where(eq(releaseExpenses.releaseId, releaseId))
    .orderBy(releaseExpenses.spentOn, releaseExpenses.createdAt);
  return found.map((row) => ({
    id: row.id,
    amountCents: row.amountCents,
    description: row.description,
    spentOn: row.spentOn,
    createdAt: row.createdAt.toISOString(),
  }));
}
