/**
 * The owner may hand the account to a member, and a member may leave (record 205): an account's id stays
 * its founder's user id, `account_owners` names its owner once ownership moved.
 */
import { TEAM_TEXTS } from '@tunedrop/shared/schemas/team';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accountMembers, accountOwners } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { rows } from '../../lib/sql';
import { recordAudit } from '../audit';
import { accountName, lockKey } from './service';

/**
 * The owner hands the account to a member who has joined (not a pending invitation) and verified their
 * email (record 205). In one transaction under the team's lock: the account's owner becomes the member,
 * whose member row goes, and the former owner becomes an Admin member. The subscription, the plan and the
 * payment provider's customer stay with the account; billing and the team are the new owner's from the
 * next request. Returns the new owner's name.
 */
export async function transferOwnership(db: Db, viewer: Viewer, newOwnerId: string): Promise<string> {
  const accountId = viewer.account.id;
  return db.transaction(async (tx) => {
    await lockKey(tx, `team:${accountId}`);
    const account = await accountName(tx, accountId);
    // The route lets only the owner in; checked again under the lock against a concurrent transfer.
    if (account.ownerId !== viewer.user.id)
      throw new AppError('account_role', TEAM_TEXTS.roleRefused('Admin'), 403);
    const [member] = await rows<{ role: string; name: string; emailVerified: boolean }>(
      tx,
      sql`select m.role, u.name, u.email_verified from account_members m join "user" u on u.id = m.user_id
           where m.account_id = ${accountId} and m.user_id = ${newOwnerId} for update of m`,
    );
    if (!member)
      throw new AppError('transfer_not_member', TEAM_TEXTS.transferNotMember, 422, {
        userId: TEAM_TEXTS.transferNotMember,
      });
    if (!member.emailVerified)
      throw new AppError('transfer_unverified', TEAM_TEXTS.transferUnverified, 422, {
        userId: TEAM_TEXTS.transferUnverified,
      });
    await tx
      .delete(accountMembers)
      .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, newOwnerId)));
    // Handed back to its founder, the account needs no owner row: its id names its owner again.
    if (newOwnerId === accountId)
      await tx.delete(accountOwners).where(eq(accountOwners.accountId, accountId));
    else
      await tx
        .insert(accountOwners)
        .values({ accountId, ownerId: newOwnerId })
        .onConflictDoUpdate({
          target: accountOwners.accountId,
          set: { ownerId: newOwnerId, transferredAt: sql`now()` },
        });
    await tx
      .insert(accountMembers)
      .values({ accountId, userId: viewer.user.id, role: 'admin', invitedBy: newOwnerId })
      .onConflictDoUpdate({
        target: [accountMembers.accountId, accountMembers.userId],
        set: { role: 'admin' },
      });
    await recordAudit(tx, viewer, {
      kind: 'team.transfer',
      subject: { type: 'account', id: accountId, label: account.name },
      subjectUserId: newOwnerId,
      before: { owner: viewer.user.id, newOwnerRole: member.role },
      after: { owner: newOwnerId, formerOwnerRole: 'admin' },
    });
    return member.name;
  });
}

/**
 * A member leaves the account they act for (record 205): the owner must transfer ownership first, and the
 * founder of a transferred account stays on it (it is their sign-in's account). Returns the account's name.
 */
export async function leaveAccount(db: Db, viewer: Viewer, meant: string): Promise<string> {
  const accountId = viewer.account.id;
  if (meant !== accountId) throw new AppError('not_acting_account', TEAM_TEXTS.leaveOtherAccount, 409);
  if (viewer.account.role === 'owner')
    throw new AppError('owner_cannot_leave', TEAM_TEXTS.ownerCannotLeave, 409);
  if (accountId === viewer.user.id) throw new AppError('founder_stays', TEAM_TEXTS.founderCannotLeave, 409);
  return db.transaction(async (tx) => {
    const account = await accountName(tx, accountId);
    const [left] = await tx
      .delete(accountMembers)
      .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, viewer.user.id)))
      .returning({ role: accountMembers.role });
    if (!left) throw new AppError('not_a_member', TEAM_TEXTS.notAMember, 403);
    await recordAudit(tx, viewer, {
      kind: 'team.leave',
      subject: { type: 'account', id: accountId, label: account.name },
      subjectUserId: viewer.user.id,
      before: { role: left.role },
    });
    return account.name;
  });
}
