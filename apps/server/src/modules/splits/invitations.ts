/**
 * Split invitations (record 147): what accepting means, shown before sign-up, and the acceptance itself.
 */

import { createHash } from 'node:crypto';
import { centsToDecimal } from '@tunedrop/shared/money';
import {
  type InvitationAcceptance,
  maskEmail,
  SPLIT_TEXTS,
  type SplitInvitation,
} from '@tunedrop/shared/schemas/splits';
import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { releases, splitPayees } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import { rows } from '../../lib/sql';
import { applyBalanceChange } from '../wallet';
import { outstandingExpenseCents } from './expenses';
import { lockSplitsForEdit } from './posting';
import { releaseExpenseViews } from './release-splits';

/** Invitation tokens are stored hashed: the link in the mail is the only copy of the token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const oneLine = (text: string) => text.replace(/\p{Cc}+/gu, ' ').trim();

async function invitationByToken(db: DbOrTx, token: string, lock = false) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const query = db
    .select()
    .from(splitPayees)
    .where(eq(splitPayees.tokenHash, hashToken(token)));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/**
 * Who may accept (record 147): a signed-in account whose verified email is the invited address, and not
 * the release owner. Anyone else is told which address (masked) must sign in.
 */
function acceptanceFor(
  invitedEmail: string,
  ownerId: string | undefined,
  viewer: Viewer | null,
): InvitationAcceptance {
  const masked = maskEmail(invitedEmail);
  if (!viewer) return { status: 'signed_out', message: SPLIT_TEXTS.invitationOtherAccount(masked) };
  if (viewer.user.id === ownerId) return { status: 'owner', message: SPLIT_TEXTS.ownInvitation };
  if (viewer.user.email.toLowerCase() !== invitedEmail.toLowerCase()) {
    return { status: 'other_account', message: SPLIT_TEXTS.invitationOtherAccount(masked) };
  }
  if (!viewer.user.emailVerified) return { status: 'unverified', message: SPLIT_TEXTS.invitationUnverified };
  return { status: 'ready', message: null };
}

/** What accepting means, shown before the payee signs up or accepts (public: the token is the secret). */
export async function getInvitation(
  db: DbOrTx,
  token: string,
  viewer: Viewer | null,
): Promise<SplitInvitation> {
  const payee = await invitationByToken(db, token);
  if (!payee) throw notFound(SPLIT_TEXTS.invitationNotFound);
  const [release] = await rows<{
    title: string;
    ownerName: string | null;
    ownerEmail: string;
    userId: string;
  }>(
    db,
    sql`
      select r.title, p.artist_name as owner_name, u.email as owner_email, r.user_id
        from releases r join "user" u on u.id = r.user_id left join profiles p on p.id = r.user_id
       where r.id = ${payee.releaseId}`,
  );
  // The newest version of each target (default and tracks) that lists this payee.
  const shares = await rows<{ trackTitle: string | null; percent: string }>(
    db,
    sql`
      select t.title as track_title, s.percent::text as percent
        from (select distinct on (coalesce(v.track_id, '00000000-0000-0000-0000-000000000000'::uuid)) v.*
                from split_versions v where v.release_id = ${payee.releaseId}
               order by coalesce(v.track_id, '00000000-0000-0000-0000-000000000000'::uuid), v.created_at desc,
                        v.version desc) v
        join split_shares s on s.version_id = v.id and s.payee_id = ${payee.id}
        left join tracks t on t.id = v.track_id
       order by v.track_id is not null, t.position`,
  );
  const [held] = await rows<{ cents: string }>(
    db,
    sql`
      select coalesce(sum(cents), 0)::text as cents from split_settlements
       where payee_id = ${payee.id} and held and released_to is null`,
  );
  const acceptance = acceptanceFor(payee.email, release?.userId, viewer);
  // The full address only to its own (verified) account and to the owner who typed it.
  const isOwnAddress = acceptance.status === 'ready' || acceptance.status === 'owner';
  return {
    releaseTitle: release?.title ?? '',
    ownerName: release?.ownerName ?? release?.ownerEmail ?? '',
    email: isOwnAddress ? payee.email : maskEmail(payee.email),
    status: payee.status,
    acceptance,
    shares: shares.map((row) => ({ trackTitle: row.trackTitle, percent: row.percent })),
    heldCents: Number(held?.cents ?? 0),
    expenses: await releaseExpenseViews(db, payee.releaseId),
    remainingExpenseCents: await outstandingExpenseCents(db, payee.releaseId),
  };
}

/**
 * Accepts an invitation for the signed-in account (any plan or none): future shares are paid to it, and
 * the shares held so far are credited now through the one balance path (one 'split_release' log row).
 */
export async function acceptInvitation(
  db: Db,
  token: string,
  viewer: Viewer,
): Promise<{ accepted: true; releasedCents: number }> {
  return db.transaction(async (tx: Tx) => {
    await lockSplitsForEdit(tx);
    const payee = await invitationByToken(tx, token, true);
    if (!payee) throw notFound(SPLIT_TEXTS.invitationNotFound);
    if (payee.status === 'withdrawn')
      throw new AppError('invitation_withdrawn', SPLIT_TEXTS.invitationWithdrawn, 409);
    if (payee.status === 'accepted') {
      throw new AppError('invitation_accepted', SPLIT_TEXTS.invitationAccepted, 409);
    }
    const [release] = await tx
      .select({ userId: releases.userId, title: releases.title })
      .from(releases)
      .where(eq(releases.id, payee.releaseId));
    if (release?.userId === viewer.user.id) throw new AppError('own_release', SPLIT_TEXTS.ownInvitation, 422);
    // The link alone is not enough (record 147): it must be the invited address's own, verified account.
    const acceptance = acceptanceFor(payee.email, release?.userId, viewer);
    if (acceptance.status === 'other_account')
      throw new AppError('invitation_other_account', acceptance.message, 403);
    if (acceptance.status === 'unverified')
      throw new AppError('invitation_unverified', acceptance.message, 403);
    await tx
      .update(splitPayees)
      .set({ status: 'accepted', userId: viewer.user.id, acceptedAt: sql`clock_timestamp()` })
      .where(eq(splitPayees.id, payee.id));
    const [released] = await rows<{ cents: string | null }>(
      tx,
      sql`
        with released as (
          update split_settlements
             set released_to = 'payee', released_at = clock_timestamp(), payee_user_id = ${viewer.user.id}
           where payee_id = ${payee.id} and held and released_to is null
          returning cents
        )
        select sum(cents)::text as cents from released`,
    );
    const releasedCents = Number(released?.cents ?? 0);
    if (releasedCents !== 0) {
      await applyBalanceChange(
        tx,
        {
          userId: viewer.user.id,
          balanceDeltaCents: releasedCents,
          addsPositiveDifferenceToEarnings: true,
          updateType: 'split_release',
          notes: `Held split shares of "${oneLine(release?.title ?? '')}" released on acceptance`,
          counterEntries: [
            { account: 'payee_held', subject: payee.id, amount: centsToDecimal(releasedCents) },
          ],
        },
        { reference: { type: 'split_payee', id: payee.id } },
      );
    }
    return { accepted: true as const, releasedCents };
  });
}
