/** Balance changes: every one locks the profile row, writes the new figures and a log row in one transaction. */
import type { BalanceUpdateType } from '@tunedrop/shared';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { balanceUpdatesLog, profiles } from '../../db/schema';
import { notFound } from '../../lib/errors';

export type BalanceChange = {
  userId: string;
  newBalanceCents: number;
  /** When set, total earnings rise by the positive difference between new and old balance. */
  addsPositiveDifferenceToEarnings: boolean;
  updateType: BalanceUpdateType;
  admin?: { id: string; email: string } | null;
  notes?: string | null;
  withdrawalRequestId?: string | null;
};

export async function applyBalanceChange(db: DbOrTx, change: BalanceChange) {
  return db.transaction(async (tx) => {
    const [profile] = await tx
      .select({
        email: profiles.email,
        balanceCents: profiles.balanceCents,
        totalEarningsCents: profiles.totalEarningsCents,
      })
      .from(profiles)
      .where(eq(profiles.id, change.userId))
      .for('update');
    if (!profile) throw notFound('User not found');
    const difference = change.newBalanceCents - profile.balanceCents;
    const earningsDelta = change.addsPositiveDifferenceToEarnings && difference > 0 ? difference : 0;
    await tx
      .update(profiles)
      .set({
        balanceCents: change.newBalanceCents,
        totalEarningsCents: profile.totalEarningsCents + earningsDelta,
        updatedAt: new Date(),
      })
      .where(eq(profiles.id, change.userId));
    await tx.insert(balanceUpdatesLog).values({
      userId: change.userId,
      userEmail: profile.email,
      oldBalanceCents: profile.balanceCents,
      newBalanceCents: change.newBalanceCents,
      earningsDeltaCents: earningsDelta,
      adminId: change.admin?.id ?? null,
      adminEmail: change.admin?.email ?? null,
      updateType: change.updateType,
      withdrawalRequestId: change.withdrawalRequestId ?? null,
      notes: change.notes ?? null,
    });
    return {
      oldBalanceCents: profile.balanceCents,
      newBalanceCents: change.newBalanceCents,
      earningsDeltaCents: earningsDelta,
    };
  });
}

/** `balance:set` in the CLI: sets the available balance, counting a rise as earnings. */
export function setBalanceByCli(db: DbOrTx, userId: string, newBalanceCents: number) {
  return applyBalanceChange(db, {
    userId,
    newBalanceCents,
    addsPositiveDifferenceToEarnings: true,
    updateType: 'cli',
    notes: 'Balance set with the administration CLI',
  });
}
